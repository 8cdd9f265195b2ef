/**
 * What published OpenAPI documents get wrong in their schemas that JSON Schema 2020-12, and so the draft's
 * validation, refuses: a `pattern` that is no string or no regular expression under the `u` flag (every generated
 * validator compiles patterns with it), a `required` name that `additionalProperties: false` forbids, and an
 * `allOf`, `anyOf` or `oneOf` written as one schema instead of a list. Each is
 * repaired when its meaning can be kept, else left out, and either way said: a draft imports whole and valid, and
 * the reviewer reads what changed.
 */
import { isRecord } from '../util/guards.js';
import { quote } from './names.js';

/** Characters an escape keeps under the `u` flag: ECMA-262's SyntaxCharacter and `/`. */
const syntax = new Set('^$\\.*+?()[]{}|/');
/** Letters and digits that begin an escape with a meaning: classes, controls, references, code points. */
const meaningful = /[bBcdDfknpPrsStuvwWx0-9]/;

function compiles(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/**
 * `pattern` as the `u` flag compiles it, or undefined when it cannot be kept: an identity escape of a character with
 * no meaning (`\%`, or `\-` outside a class), which means the character without the flag and is an error with it, is
 * written as the character; what still does not compile is left out. `notices` gets a line for each change, which
 * names `where` (the component, or an operation).
 */
export function unicodePattern(pattern: unknown, notices: Set<string>, where: string): string | undefined {
  if (typeof pattern !== 'string') {
    notices.add(`${where}: the pattern ${JSON.stringify(pattern)} is no string; it is left out`);
    return undefined;
  }
  if (compiles(pattern, 'u')) return pattern;
  let written = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] ?? '';
    const next = pattern[i + 1];
    if (char === '\\' && next !== undefined) {
      const keeps = syntax.has(next) || meaningful.test(next) || (inClass && next === '-');
      written += keeps ? `\\${next}` : next;
      i += 1;
      continue;
    }
    if (char === '[' && !inClass) inClass = true;
    else if (char === ']' && inClass) inClass = false;
    written += char;
  }
  if (compiles(pattern, '') && compiles(written, 'u')) {
    notices.add(`${where}: the pattern ${quote(pattern)} escapes what the u flag refuses; written ${quote(written)}`);
    return written;
  }
  notices.add(`${where}: the pattern ${quote(pattern)} is no regular expression with the u flag; it is left out`);
  return undefined;
}

/**
 * `schema`'s `required` without the names `additionalProperties: false` forbids (neither a property nor matched by a
 * `patternProperties` key): no value satisfies such a schema, so every answer would fail its check.
 */
export function satisfiableRequired(schema: Record<string, unknown>, notices: Set<string>, where: string): void {
  if (schema.additionalProperties !== false || !Array.isArray(schema.required)) return;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const patterns = (isRecord(schema.patternProperties) ? Object.keys(schema.patternProperties) : [])
    .filter((key) => compiles(key, 'u'))
    .map((key) => new RegExp(key, 'u'));
  const allowed = (name: unknown) =>
    typeof name !== 'string' || Object.hasOwn(properties, name) || patterns.some((pattern) => pattern.test(name));
  const kept = schema.required.filter(allowed);
  if (kept.length === schema.required.length) return;
  const gone = schema.required.filter((name) => !allowed(name)).map((name) => quote(String(name)));
  notices.add(
    `${where} requires ${gone.join(', ')}, which it neither declares nor allows (additionalProperties: false); ` +
      'the requirement is left out',
  );
  if (kept.length > 0) schema.required = kept;
  else delete schema.required;
}

/** The keywords whose value is a list of schemas. */
const compositions = ['allOf', 'anyOf', 'oneOf'];

/** `schema`, with an `allOf`, `anyOf` or `oneOf` that is one schema (not a list) as a list of that schema. */
export function listedCompositions(
  schema: Readonly<Record<string, unknown>>,
  notices: Set<string>,
  where: string,
): Readonly<Record<string, unknown>> {
  const single = compositions.filter((key) => isRecord(schema[key]));
  if (single.length === 0) return schema;
  const listed: Record<string, unknown> = { ...schema };
  for (const key of single) {
    listed[key] = [schema[key]];
    notices.add(`${where}: "${key}" is one schema, not a list; written as a list of it`);
  }
  return listed;
}

/**
 * `schema` whose `type` is a schema itself (Codat writes `itemType: { type: { enum: [...], type: string } }`) as
 * that schema, the outer keywords winning; any other schema as it is.
 */
export function nestedType(
  schema: Readonly<Record<string, unknown>>,
  notices: Set<string>,
  where: string,
): Readonly<Record<string, unknown>> {
  if (!isRecord(schema.type)) return schema;
  const { type, ...rest } = schema;
  notices.add(`${where}: a "type" is a schema, not a type name; its keywords are taken as the schema's`);
  return { ...type, ...rest };
}

const typeNames = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/**
 * `type` as JSON Schema names types: a name in another case (`Number`) in lower case, one that is none
 * (`application/json`) left out; undefined when no name is left.
 */
export function schemaType(value: unknown, notices: Set<string>, where: string): unknown {
  if (typeof value === 'string' && typeNames.has(value)) return value;
  const listed = Array.isArray(value) ? value : [value];
  const names = listed.map((t) => (typeof t === 'string' ? t.toLowerCase() : '')).filter((t) => typeNames.has(t));
  if (names.length === listed.length && names.every((name, i) => name === listed[i])) return value;
  const kept = Array.isArray(value) ? [...new Set(names)] : names[0];
  const done = names.length === 0 ? 'no type name; it is left out' : `written ${JSON.stringify(kept)}`;
  notices.add(`${where}: the type ${JSON.stringify(value)} is ${done}`);
  return names.length === 0 ? undefined : kept;
}

/**
 * A schema's `examples` as the list JSON Schema takes: a map of OpenAPI Example Objects (the Media Type's form,
 * written in a schema) as the list of their values; anything else that is no list is left out.
 */
export function examplesList(value: unknown, notices: Set<string>, where: string): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  const map = isRecord(value);
  const done = map ? 'a map of examples, not a list; their values are kept' : 'no list; it is left out';
  notices.add(`${where}: "examples" is ${done}`);
  return map ? Object.values(value).map((e) => (isRecord(e) && 'value' in e ? e.value : e)) : undefined;
}

/** `schema` with `description`; one that is a `$ref` keeps it beside the reference (see {@link alone}). */
export function withDescription(schema: Record<string, unknown>, description: string): Record<string, unknown> {
  return schema.description === undefined ? alone({ ...schema, description }) : schema;
}

/**
 * A `$ref` with keywords beside it as `allOf: [{ $ref }]` plus those keywords: json-schema-to-typescript
 * merges a `$ref`'s siblings into the referenced type, so a body described as "Pet to add" would declare a
 * second, different `Pet` (a type-name collision at generate).
 */
export function alone(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.$ref !== 'string' || Object.keys(schema).length === 1) return schema;
  const { $ref, ...siblings } = schema;
  return { allOf: [{ $ref }], ...siblings };
}
