import { mapSchema } from '../model/schema-walk.js';
import { sharedClosure, sharedRefName, sharedRefsOf } from '../model/shared-schema.js';
import type { JsonSchema, SharedSchemaModel } from '../model/types.js';
import { compareText, sortBy } from '../util/compare.js';
import { isRecord } from '../util/guards.js';

/** The shared schemas by name, each normalized once; what tools use to complete their wire schemas. */
export type SharedSchemas = ReadonlyMap<string, SharedSchemaModel>;

/** `schema` with every `#/schemas/<name>` reference as `#/$defs/<name>`, the place the wire schema holds it. */
export function toWireRefs(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    const name = sharedRefName(node.$ref);
    return name === null ? node : { ...node, $ref: `#/$defs/${name}` };
  }) as JsonSchema;
}

/**
 * A tool's wire schema (handles already lowered, `#/schemas/` references still as written) made self-contained:
 * references rewritten, and every shared schema it reaches added under `$defs`, as the shared model's object.
 */
export function withSharedDefs(wire: JsonSchema, source: JsonSchema, shared: SharedSchemas): JsonSchema {
  const reached = sharedClosure(sharedRefsOf(source), (name) => shared.get(name)?.refs);
  if (reached.length === 0) return wire;
  const rewritten = toWireRefs(wire) as Record<string, unknown>;
  const own = isRecord(rewritten.$defs) ? rewritten.$defs : {};
  const defs: Record<string, unknown> = { ...own };
  for (const name of reached.sort(compareText)) {
    const model = shared.get(name);
    if (model !== undefined) defs[name] = model.wire;
  }
  const sortedDefs = Object.fromEntries(sortBy(Object.entries(defs), ([k]) => k));
  const out: Record<string, unknown> = { ...rewritten, $defs: sortedDefs };
  return Object.fromEntries(sortBy(Object.entries(out), ([k]) => k)) as JsonSchema;
}
