import { createHash } from 'node:crypto';
import { compile, DEFAULT_OPTIONS, type Options } from 'json-schema-to-typescript';
import { generate } from 'json-schema-to-typescript/dist/src/generator.js';
import { link } from 'json-schema-to-typescript/dist/src/linker.js';
import { normalize, normalizeNullableRefs } from 'json-schema-to-typescript/dist/src/normalizer.js';
import { optimize } from 'json-schema-to-typescript/dist/src/optimizer.js';
import { nameAnonymousRecursiveTypes, parse } from 'json-schema-to-typescript/dist/src/parser.js';
import { validate } from 'json-schema-to-typescript/dist/src/validator.js';
import { mapSchema } from '../../model/schema-walk.js';
import { sharedRefName } from '../../model/shared-schema.js';
import type { HandleModel, JsonSchema } from '../../model/types.js';

/** One formatting owner (finalize), no banner of its own, explicit index signatures, no network. */
const options: Partial<Options> = {
  bannerComment: '',
  format: false,
  additionalProperties: true,
  declareExternallyReferenced: true,
  enableConstEnums: false,
  ignoreMinAndMaxItems: true,
  strictIndexSignatures: false,
  unknownAny: true,
  unreachableDefinitions: false,
  $refOptions: { resolve: { external: false, file: false, http: false } } as never,
};

/** Keys json-schema-to-typescript would copy into code as-is; manifest text must never become code. */
const unsafeKeys = ['tsType', 'tsEnumNames', '$id', 'id'];

/**
 * An input object whose properties with a `default` count as required: the runtime fills in every default
 * before the handler runs, so the handler's input type has `limit: number`, not `limit?: number`.
 */
function requireDefaulted(node: Record<string, unknown>): Record<string, unknown> {
  const properties = node.properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return node;
  const defaulted = Object.entries(properties as Record<string, unknown>)
    .filter(([, property]) => property !== null && typeof property === 'object' && 'default' in property)
    .map(([name]) => name);
  if (defaulted.length === 0) return node;
  const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
  return { ...node, required: [...required, ...defaulted.filter((name) => !required.includes(name))] };
}

/**
 * json-schema-to-typescript calls `schema.hasOwnProperty(...)` on every node, so a property of that name breaks it.
 * The compiler sees this stand-in instead, an identifier no manifest holds, written back once the text is made.
 */
const ownPropertyStandIn = 'hasOwnProperty_mcp_gen_stand_in';

/** `node` with a property named `hasOwnProperty` (and its `required` entry) under the stand-in's name. */
function standInOwnProperty(node: Record<string, unknown>): Record<string, unknown> {
  const properties = node.properties as Record<string, unknown> | undefined;
  if (properties === null || typeof properties !== 'object' || !Object.hasOwn(properties, 'hasOwnProperty'))
    return node;
  const renamed = Object.entries(properties).map(([k, v]) => [k === 'hasOwnProperty' ? ownPropertyStandIn : k, v]);
  const required = Array.isArray(node.required)
    ? { required: node.required.map((k) => (k === 'hasOwnProperty' ? ownPropertyStandIn : k)) }
    : {};
  return { ...node, properties: Object.fromEntries(renamed), ...required };
}

/** The compiled `text` with the stand-in's name written back. */
const restoreOwnProperty = (text: string): string =>
  text.includes(ownPropertyStandIn) ? text.split(ownPropertyStandIn).join('hasOwnProperty') : text;

declare const fresh: unique symbol;

/**
 * A schema tree that only the compiler holds, built by `prepareSchema` (a deep copy): json-schema-to-typescript
 * may change it in place (compileUnreferenced), so nothing else may keep a reference to it or any of its nodes.
 */
export type PreparedSchema = Record<string, unknown> & { readonly [fresh]: true };

/**
 * A schema prepared for json-schema-to-typescript, as a fresh tree (`PreparedSchema`): unsafe keys removed, each
 * `$handle` replaced by its branded type (a verified handle in inputs, the raw
 * token in outputs), defaulted input properties required, and the root title
 * dropped so the model's name is used.
 */
export function prepareSchema(
  schema: JsonSchema,
  handles: readonly HandleModel[],
  side: 'input' | 'output',
  sharedTypes: ReadonlyMap<string, string> = new Map(),
): PreparedSchema {
  const typeOf = new Map(handles.map((h) => [h.name, h.typeName]));
  const prepared = mapSchema(schema, (node, path) => {
    const clean = standInOwnProperty({ ...node });
    for (const key of unsafeKeys) delete clean[key];
    // A shared schema is declared once under its own type name (types/index.ts); a use names that type.
    const shared = sharedRefName(node.$ref);
    const sharedType = shared === null ? undefined : sharedTypes.get(shared);
    if (sharedType !== undefined) {
      const { $ref: _ref, ...rest } = clean;
      return { ...rest, tsType: sharedType };
    }
    // The runtime fills in defaults along `properties` from the root only (withDefaults in register.gen.ts).
    const filled = side === 'input' && path.every((part, i) => i % 2 === 1 || part === 'properties');
    if (typeof node.$handle !== 'string') return filled ? requireDefaulted(clean) : clean;
    const typeName = typeOf.get(node.$handle) ?? 'string';
    const description = typeof node.description === 'string' ? { description: node.description } : {};
    return { type: 'string', tsType: side === 'input' ? `Verified<${typeName}>` : typeName, ...description };
  }) as Record<string, unknown>;
  const { title: _title, ...rest } = prepared;
  return rest as PreparedSchema;
}

/** TypeScript declarations for `schema`, with `name` as the root type. */
export async function compileSchema(schema: Record<string, unknown>, name: string): Promise<string> {
  return compile(schema as never, name, { ...options, cwd: '/' });
}

/** `options` over the library's defaults, as `compile` merges them on every call. */
const merged = { ...DEFAULT_OPTIONS, ...options, cwd: '/' } as Options;

/**
 * What `compileSchema` gives, for a schema without any `$ref` that nothing else holds (`prepareSchema`'s fresh
 * tree), which the compiler changes as it goes: `compile` itself, minus three steps that do nothing for it but
 * cost: merging the options again, a deep copy of the schema, and dereferencing, whose resolver costs more than
 * all the rest for a small schema, which a project of a thousand tools pays a thousand times.
 * The stages are those `compile` runs, in its order, from the exactly pinned json-schema-to-typescript;
 * test/unit/types-direct.test.ts holds the two paths equal.
 */
export function compileUnreferenced(schema: PreparedSchema, name: string): string {
  normalizeNullableRefs(schema as never);
  const linked = link(schema as never);
  const errors = validate(linked, name);
  if (errors.length > 0) throw new Error(`json-schema-to-typescript: ${errors.join('; ')}`);
  const normalized = normalize(linked, new WeakMap(), name, merged);
  const processed = new Map();
  const usedNames = new Set<string>();
  const parsed = parse(normalized, merged, undefined, processed, usedNames);
  nameAnonymousRecursiveTypes(parsed, processed, new WeakMap(), usedNames);
  return generate(optimize(parsed, merged), merged);
}

/** A name json-schema-to-typescript writes unchanged (its `toSafeString` is the identity on it). */
const plainName = /^[A-Z](?:[A-Za-z]|\d+[A-Z])*\d*$/;

/** Whether `text` declares `name` and names it nowhere else (no recursion, no comment, no numbered namesake). */
function declaresOnly(text: string, name: string): boolean {
  const at = text.indexOf(name);
  return (
    at >= 0 &&
    text.indexOf(name, at + 1) < 0 &&
    (text.startsWith(`interface ${name} `, at - 'interface '.length) ||
      text.startsWith(`type ${name} =`, at - 'type '.length))
  );
}

/**
 * `compileSchema`, compiling each distinct schema once: an imported API gives hundreds of tools the same input
 * (`{owner, repo}`) or output, and json-schema-to-typescript costs milliseconds per schema. A repeat takes the
 * first text with the root name swapped, which is exactly what compiling it again gives when the root name occurs
 * only in its declaration and the new name nowhere (no recursion through the root, no nested type named like either
 * root, which the compiler would number, no comment that mentions one) and both names are plain identifiers;
 * otherwise it is compiled again.
 */
export function reusingCompile(): (schema: PreparedSchema, name: string) => Promise<string> {
  // Keyed by the digest of the schema's JSON, not the JSON itself: a large API's distinct schemas, tens of
  // kilobytes each, would otherwise all be held until the last type is compiled.
  const first = new Map<string, { name: string; text: string }>();
  return async (schema, name) => {
    const json = JSON.stringify(schema);
    const key = createHash('sha256').update(json).digest('base64');
    const earlier = first.get(key);
    if (earlier !== undefined && plainName.test(name) && plainName.test(earlier.name)) {
      if (declaresOnly(earlier.text, earlier.name) && !earlier.text.includes(name))
        return earlier.text.replace(earlier.name, name);
    }
    // A `$ref` anywhere (even a property so named) takes the library's whole path.
    const text = restoreOwnProperty(
      json.includes('"$ref"') ? await compileSchema(schema, name) : compileUnreferenced(schema, name),
    );
    if (earlier === undefined) first.set(key, { name, text });
    return text;
  };
}
