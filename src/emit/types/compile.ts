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
