import { compile, type Options } from 'json-schema-to-typescript';
import { mapSchema } from '../../model/schema-walk.js';
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
 * A schema prepared for json-schema-to-typescript: unsafe keys removed, each
 * `$handle` replaced by its branded type (a verified handle in inputs, the raw
 * token in outputs), and the root title dropped so the model's name is used.
 */
export function prepareSchema(schema: JsonSchema, handles: readonly HandleModel[], side: 'input' | 'output'): Record<string, unknown> {
  const typeOf = new Map(handles.map((h) => [h.name, h.typeName]));
  const prepared = mapSchema(schema, (node) => {
    const clean = { ...node };
    for (const key of unsafeKeys) delete clean[key];
    if (typeof node.$handle !== 'string') return clean;
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
