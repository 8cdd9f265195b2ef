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
 * never reads beyond the one file nor touches the network. `edit` (the import's overlays) changes the parsed
 * document before anything else reads it.
 */
export async function loadOpenApi(
  file: string,
  cwd: string,
  edit?: (document: Record<string, unknown>) => void,
): Promise<LoadedOpenApi> {
  const absolute = path.resolve(cwd, file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    throw new OpenApiError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = file.endsWith('.json') ? parseJson(bytes) : parse(bytes.toString('utf8'), { maxAliasCount: 100 });
  } catch (error) {
    throw new OpenApiError(
      `${file}: not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message}`,
    );
  }
  if (edit !== undefined && isRecord(data)) edit(data);
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

/** The text of a file an import reads besides the spec (an overlay); `null` when it cannot be read. */
export function readImportText(file: string, cwd: string): string | null {
  try {
    return readFileSync(path.resolve(cwd, file), 'utf8');
  } catch {
    return null;
  }
}

/**
 * JSON.parse of the UTF-8 text in `bytes`, without decoding it as UTF-8 whole: a single non-ASCII character makes
 * V8 build a two-byte string of the whole text, several times slower to build and parse than a one-byte string
 * for a large description with a few non-ASCII bytes. The bytes are read as Latin-1 (one byte, one character:
 * ASCII stays itself), and each run of non-ASCII bytes is decoded as UTF-8 and written as `\uXXXX` escapes, which
 * JSON.parse turns back into the same characters. ASCII bytes never belong to a multi-byte sequence, so decoding
 * run by run is decoding the whole (a malformed sequence gives U+FFFD either way). A non-ASCII byte outside a
 * string is a syntax error either way; the error is then taken from the plain text, so its message and position
 * are the same.
 */
function parseJson(bytes: Buffer): unknown {
  const latin1 = bytes.toString('latin1');
  // Right after a backslash, an escape would change the meaning: \é is not JSON, but \\u00e9 (an escaped
  // backslash, then text) is. Such a text, invalid or rare, is parsed plainly.
  let afterBackslash = false;
  const escaped = latin1.replace(/[\x80-\xff]+/g, (run, offset: number) => {
    if (latin1.charCodeAt(offset - 1) === 0x5c) afterBackslash = true;
    return escapeUnits(Buffer.from(run, 'latin1').toString('utf8'));
  });
  if (afterBackslash) return JSON.parse(bytes.toString('utf8'));
  try {
    return JSON.parse(escaped);
  } catch {
    return JSON.parse(bytes.toString('utf8'));
  }
}

/** Every UTF-16 unit of `text` as a JSON `\uXXXX` escape. */
function escapeUnits(text: string): string {
  let escaped = '';
  for (let i = 0; i < text.length; i += 1) escaped += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return escaped;
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
