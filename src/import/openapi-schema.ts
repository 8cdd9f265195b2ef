import { isRecord } from '../util/guards.js';

/** OpenAPI-only keywords with no JSON Schema 2020-12 meaning; dropped from tool schemas. */
const openApiOnly = new Set(['discriminator', 'xml', 'externalDocs', 'example', 'nullable']);

/** What converting one schema found that a reviewer should see. */
export interface SchemaFindings {
  /** A circular `$ref` was replaced by an open schema. */
  circular: boolean;
}

/**
 * An OpenAPI 3.0/3.1 Schema Object as JSON Schema 2020-12, the dialect of
 * tool schemas: `nullable: true` becomes a `null` type, `example` becomes
 * `examples`, 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` become
 * numbers, `x-` extensions and OpenAPI-only keywords go. Bounds (`minLength`,
 * `maximum`, `pattern`, `enum`, ...) carry over as they are. A `$ref` still
 * present after dereferencing is circular; it becomes `{}` and is reported.
 */
export function toJsonSchema(
  schema: unknown,
  findings: SchemaFindings,
  seen: ReadonlySet<object> = new Set(),
): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, findings, seen));
  if (!isRecord(schema)) return schema;
  // The dereferencer shares one object for every use of a component; a cycle through shared objects is circular.
  if (seen.has(schema) || typeof schema.$ref === 'string') {
    findings.circular = true;
    return {};
  }
  const inner = new Set(seen).add(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || openApiOnly.has(key)) continue;
    if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'dependentSchemas') {
      out[key] = isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v, findings, inner)]))
        : value;
    } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
      if (typeof value === 'number') out[key] = value;
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'required') {
      out[key] = structuredClone(value);
    } else {
      out[key] = toJsonSchema(value, findings, inner);
    }
  }
  // OpenAPI 3.0 writes the exclusive bound as a flag next to minimum/maximum.
  if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number') {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number') {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
  if ('example' in schema && !('examples' in schema)) out.examples = [structuredClone(schema.example)];
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

/** An object schema that accepts keys it does not name, or names none: the model cannot know what to send. */
export function isOpenObject(schema: unknown): boolean {
  if (!isRecord(schema)) return true;
  if (Object.keys(schema).length === 0) return true;
  const objectish = schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);
  if (!objectish) return false;
  return (
    !isRecord(schema.properties) ||
    Object.keys(schema.properties).length === 0 ||
    schema.additionalProperties === true ||
    isRecord(schema.additionalProperties)
  );
}
