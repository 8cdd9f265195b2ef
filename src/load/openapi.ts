import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parse, parseDocument } from 'yaml';
import { isRecord } from '../util/guards.js';
import { formatPointer } from '../util/json-pointer.js';
import { lowerFirst } from '../util/lower-first.js';

/** One reason a spec cannot be imported, at its 1-based line and column. */
interface SpecProblem {
  readonly message: string;
  readonly hint: string;
  readonly line: number;
  readonly col: number;
}

/** An OpenAPI document that cannot be imported: every reason found, each where it is in the file. */
export class OpenApiError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly SpecProblem[],
  ) {
    super(problems.map((p) => p.message).join('; '));
  }

  /** `file:line:col: error [import-spec] message`, then `  hint: ...`, per problem. */
  format(): string {
    return this.problems
      .map((p) => `${this.file}:${p.line}:${p.col}: error [import-spec] ${p.message}\n  hint: ${p.hint}\n`)
      .join('');
  }
}

/** A problem of the whole file, placed at its start. */
const atStart = (file: string, message: string, hint: string): OpenApiError =>
  new OpenApiError(file, [{ message, hint, line: 1, col: 1 }]);

/** Remote references named before the rest are only counted. */
const shownRefs = 20;

/** The 1-based line and column of `offset` in `text`. */
function positionOf(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, col: offset - before.lastIndexOf('\n') };
}

/** Where each of `pointers` (paths of keys) is in `text`: parsed again, on this error path only. */
function positionsOf(text: string, paths: readonly (readonly (string | number)[])[]) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  return paths.map((at) => {
    const node = doc.getIn(at, true) as { range?: [number, number, number] } | undefined;
    return lineCounter.linePos(node?.range?.[0] ?? 0);
  });
}

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
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw atStart(
      file,
      code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${code})`,
      'pass the path of an OpenAPI 3.x or Swagger 2.0 document, YAML or JSON',
    );
  }
  let data: unknown;
  const json = file.endsWith('.json');
  try {
    data = json ? parseJson(bytes) : parse(bytes.toString('utf8'), { maxAliasCount: 100 });
  } catch (error) {
    throw syntaxError(file, bytes.toString('utf8'), json, error as Error);
  }
  if (edit !== undefined && isRecord(data)) edit(data);
  const swagger = isRecord(data) && data.swagger === '2.0';
  if (!isRecord(data) || (!swagger && (typeof data.openapi !== 'string' || !data.openapi.startsWith('3.'))))
    throw atStart(
      file,
      'not an OpenAPI 3.x or Swagger 2.0 document (no "openapi: 3.x" field)',
      'import openapi reads a document that starts with "openapi: 3.0.x" or "3.1.x" (or "swagger: \'2.0\'")',
    );
  const remote: { ref: string; at: (string | number)[] }[] = [];
  findRemoteRefs(data, [], remote);
  if (remote.length > 0) {
    const shown = remote.slice(0, shownRefs);
    const places = positionsOf(
      bytes.toString('utf8'),
      shown.map((r) => r.at),
    );
    const more = remote.length - shown.length;
    throw new OpenApiError(
      file,
      shown.map((r, i) => ({
        message:
          `$ref "${r.ref}" at ${formatPointer(r.at) || '/'} points outside this file; remote references are refused` +
          (i === shown.length - 1 && more > 0 ? ` (and ${more} more)` : ''),
        hint: 'inline the schema, or make the reference local ("#/components/...")',
        ...(places[i] ?? { line: 1, col: 1 }),
      })),
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
    const copy = structuredClone(data);
    markFormCollections(copy);
    const converted = await convertObj(copy, { patch: true, warnOnly: true, resolve: false });
    return converted.openapi;
  } catch (error) {
    throw atStart(
      file,
      `this Swagger 2.0 document cannot be converted: ${(error as Error).message}`,
      'fix the document, or convert it to OpenAPI 3 first',
    );
  }
}

/**
 * Each `formData` array parameter of a Swagger 2.0 document with its `collectionFormat` (`csv` unless it says) in
 * `x-mcp-gen-collection-format`: swagger2openapi drops the format of a body member, but copies a parameter's
 * extensions onto the member's schema, where the import reads it (csv is `a,b` in a form, not `a&a`).
 */
function markFormCollections(data: Record<string, unknown>): void {
  const paths = isRecord(data.paths) ? Object.values(data.paths).filter(isRecord) : [];
  const lists = [
    isRecord(data.parameters) ? Object.values(data.parameters) : [],
    ...paths.flatMap((item) => [item, ...Object.values(item).filter(isRecord)].map((o) => o.parameters)),
  ];
  for (const list of lists)
    for (const p of Array.isArray(list) ? list : [])
      if (isRecord(p) && p.in === 'formData' && p.type === 'array')
        p['x-mcp-gen-collection-format'] = typeof p.collectionFormat === 'string' ? p.collectionFormat : 'csv';
}

/** Every `$ref` that leaves the document, in document order, with the path of its `$ref` key, into `found`. */
function findRemoteRefs(value: unknown, at: (string | number)[], found: { ref: string; at: (string | number)[] }[]) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      at.push(i);
      findRemoteRefs(value[i], at, found);
      at.pop();
    }
    return;
  }
  if (!isRecord(value)) return;
  if (typeof value.$ref === 'string' && !value.$ref.startsWith('#'))
    found.push({ ref: value.$ref, at: [...at, '$ref'] });
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    at.push(key);
    findRemoteRefs(value[key], at, found);
    at.pop();
  }
}

/** The error of a spec that does not parse, at the line and column where the parser stopped. */
function syntaxError(file: string, text: string, json: boolean, error: Error): OpenApiError {
  if (/alias count/i.test(error.message))
    return atStart(file, 'aliases expand to more than 100 nodes', 'write the values out instead of nesting aliases');
  const offset = json ? Number(/at position (\d+)/.exec(error.message)?.[1] ?? 0) : null;
  const yamlPos = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
  const place = offset !== null ? positionOf(text, offset) : (yamlPos ?? { line: 1, col: 1 });
  const message = error.message
    .replace(/ at line \d+, column \d+:[\s\S]*$/, '')
    .replace(/ in JSON at position \d+.*$/, '');
  return new OpenApiError(file, [
    {
      message: `not valid ${json ? 'JSON' : 'YAML'}: ${lowerFirst(message)}`,
      hint: `fix the ${json ? 'JSON' : 'YAML'} at this line`,
      ...place,
    },
  ]);
}
