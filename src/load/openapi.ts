import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dereference } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { isRecord } from '../util/guards.js';
import { formatPointer } from '../util/json-pointer.js';

/** An OpenAPI document that cannot be imported; the message says why and where. */
export class OpenApiError extends Error {}

/** A dereferenced OpenAPI 3.x document, as plain data. */
export interface LoadedOpenApi {
  /** The path as the user gave it, relative to the working directory. */
  readonly file: string;
  readonly document: Readonly<Record<string, unknown>>;
}

/**
 * Reads an OpenAPI 3.x spec (YAML or JSON) and resolves its local `$ref`s with
 * @readme/openapi-parser. Remote references (another file, a URL) are refused
 * before the parser sees the document, so import never reads beyond the one
 * file nor touches the network. Circular references stay `$ref`s; the draft
 * turns them into open schemas and flags them.
 */
export async function loadOpenApi(file: string, cwd: string): Promise<LoadedOpenApi> {
  const absolute = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new OpenApiError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = file.endsWith('.json') ? JSON.parse(text) : parse(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new OpenApiError(
      `${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  if (!isRecord(data) || typeof data.openapi !== 'string' || !data.openapi.startsWith('3.')) {
    throw new OpenApiError(`${file}: not an OpenAPI 3.x document (no "openapi: 3.x" field)`);
  }
  const remote = findRemoteRef(data, []);
  if (remote !== null) {
    throw new OpenApiError(
      `${file}: $ref "${remote.ref}" at ${remote.pointer} points outside this file; remote ` +
        'references are refused (inline the schema or make the reference local, "#/...")',
    );
  }
  try {
    const document = await dereference(structuredClone(data) as never, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    });
    return { file, document: document as unknown as Record<string, unknown> };
  } catch (error) {
    throw new OpenApiError(`${file}: ${(error as Error).message}`);
  }
}

function findRemoteRef(value: unknown, at: (string | number)[]): { ref: string; pointer: string } | null {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findRemoteRef(item, [...at, i]);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  if (typeof value.$ref === 'string' && !value.$ref.startsWith('#'))
    return { ref: value.$ref, pointer: formatPointer([...at, '$ref']) || '/' };
  for (const [key, item] of Object.entries(value)) {
    const found = findRemoteRef(item, [...at, key]);
    if (found !== null) return found;
  }
  return null;
}
