/**
 * The arguments of `mcp-gen call`: `--json '{...}'` as the base object, then
 * each `--arg key=value` on top, its value read as the tool's input schema
 * says (a number, a boolean, JSON for an object or array; a string property
 * keeps the text exactly as typed). A key the schema does not name is read
 * as JSON when it parses and as text otherwise.
 */
import { isRecord } from '../util/guards.js';

/** An argument that cannot be read; the message names the flag and says what was expected. */
export class ArgumentError extends Error {}

/** The JSON Schema `type` names a property accepts. */
function typesOf(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  return [];
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** One `--arg` value as the property's schema reads it. */
export function coerceValue(key: string, text: string, property: unknown): unknown {
  const types = typesOf(property);
  if (types.length === 0) {
    const parsed = parseJson(text);
    return parsed.ok ? parsed.value : text;
  }
  if (types.includes('string')) return text;
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    const value = Number(text);
    if (types.includes('number') || Number.isInteger(value)) return value;
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === 'null') return null;
  if (types.includes('object') || types.includes('array')) {
    const parsed = parseJson(text);
    if (parsed.ok) return parsed.value;
  }
  throw new ArgumentError(`--arg ${key}: expected ${types.join(' or ')}, got ${JSON.stringify(text)}`);
}

/** The arguments object of a call: `json` (the `--json` text, if any), then each `key=value` of `pairs`. */
export function buildArguments(
  json: string | undefined,
  pairs: readonly string[],
  inputSchema: unknown,
): Record<string, unknown> {
  let base: Record<string, unknown> = {};
  if (json !== undefined) {
    const parsed = parseJson(json);
    if (!parsed.ok || !isRecord(parsed.value)) throw new ArgumentError('--json: expected a JSON object');
    base = { ...parsed.value };
  }
  const properties = isRecord(inputSchema) && isRecord(inputSchema.properties) ? inputSchema.properties : {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ArgumentError(`--arg ${JSON.stringify(pair)}: expected key=value`);
    const key = pair.slice(0, at);
    base[key] = coerceValue(key, pair.slice(at + 1), Object.hasOwn(properties, key) ? properties[key] : undefined);
  }
  return base;
}

/** Prompt arguments are strings on the wire: `key=value` pairs as they are. */
export function promptArguments(pairs: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ArgumentError(`--arg ${JSON.stringify(pair)}: expected key=value`);
    result[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return result;
}
