import { compile, type Options } from 'json-schema-to-typescript';
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
 * A schema prepared for json-schema-to-typescript: unsafe keys removed, each
 * `$handle` replaced by its branded type (a verified handle in inputs, the raw
 * token in outputs), defaulted input properties required, and the root title
 * dropped so the model's name is used.
 */
export function prepareSchema(
  schema: JsonSchema,
  handles: readonly HandleModel[],
  side: 'input' | 'output',
  sharedTypes: ReadonlyMap<string, string> = new Map(),
): Record<string, unknown> {
  const typeOf = new Map(handles.map((h) => [h.name, h.typeName]));
  const prepared = mapSchema(schema, (node, path) => {
    const clean = { ...node };
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
  return rest;
}

/** TypeScript declarations for `schema`, with `name` as the root type. */
export async function compileSchema(schema: Record<string, unknown>, name: string): Promise<string> {
  return compile(schema as never, name, { ...options, cwd: '/' });
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
export function reusingCompile(): (schema: Record<string, unknown>, name: string) => Promise<string> {
  const first = new Map<string, { name: string; text: string }>();
  return async (schema, name) => {
    const key = JSON.stringify(schema);
    const earlier = first.get(key);
    if (earlier !== undefined && plainName.test(name) && plainName.test(earlier.name)) {
      if (declaresOnly(earlier.text, earlier.name) && !earlier.text.includes(name))
        return earlier.text.replace(earlier.name, name);
    }
    const text = await compileSchema(schema, name);
    if (earlier === undefined) first.set(key, { name, text });
    return text;
  };
}
