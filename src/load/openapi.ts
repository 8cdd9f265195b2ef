import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { isRecord } from '../util/guards.js';
import { formatPointer } from '../util/json-pointer.js';

/** An OpenAPI document that cannot be imported; the message says why and where. */
export class OpenApiError extends Error {}

/** An OpenAPI 3.x document as plain data; a Swagger 2.0 one converted to 3.0. */
export interface LoadedOpenApi {
  /** The path as the user gave it, relative to the working directory. */
  readonly file: string;
  readonly document: Readonly<Record<string, unknown>>;
}

/**
 * Reads an OpenAPI 3.x spec (YAML or JSON), or a Swagger 2.0 one, converted
 * with swagger2openapi (loaded only then). Local `$ref`s are left for the
 * draft, which shares each component schema instead of copying it into every
 * use (dereferencing GitHub's description took most of a minute and a
 * gigabyte). Remote references (another file, a URL) are refused, so import
 * never reads beyond the one file nor touches the network.
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
  const swagger = isRecord(data) && data.swagger === '2.0';
  if (!isRecord(data) || (!swagger && (typeof data.openapi !== 'string' || !data.openapi.startsWith('3.')))) {
    throw new OpenApiError(`${file}: not an OpenAPI 3.x or Swagger 2.0 document (no "openapi: 3.x" field)`);
  }
  const remote = findRemoteRef(data, []);
  if (remote !== null) {
    throw new OpenApiError(
      `${file}: $ref "${remote.ref}" at ${remote.pointer} points outside this file; remote ` +
        'references are refused (inline the schema or make the reference local, "#/...")',
    );
  }
  return { file, document: swagger ? await fromSwagger(data, file) : data };
}

/** A Swagger 2.0 document as OpenAPI 3.0, converted in memory, never resolving anything outside it. */
async function fromSwagger(data: Record<string, unknown>, file: string): Promise<Record<string, unknown>> {
  const { convertObj } = await import('swagger2openapi');
  try {
    const converted = await convertObj(structuredClone(data), { patch: true, warnOnly: true, resolve: false });
    return converted.openapi;
  } catch (error) {
    throw new OpenApiError(`${file}: this Swagger 2.0 document cannot be converted: ${(error as Error).message}`);
  }
}

/** The first `$ref` that leaves the document; `at` is the path walked so far, grown and shrunk in place. */
function findRemoteRef(value: unknown, at: (string | number)[]): { ref: string; pointer: string } | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      at.push(i);
      const found = findRemoteRef(value[i], at);
      at.pop();
      if (found !== null) return found;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  if (typeof value.$ref === 'string' && !value.$ref.startsWith('#'))
    return { ref: value.$ref, pointer: formatPointer([...at, '$ref']) || '/' };
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    at.push(key);
    const found = findRemoteRef(value[key], at);
    at.pop();
    if (found !== null) return found;
  }
  return null;
}
