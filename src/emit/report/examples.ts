import { walkSchema } from '../../model/schema-walk.js';
import type { JsonSchema, ServerModel } from '../../model/types.js';
import { isRecord } from '../../util/guards.js';

/** A plausible value for a schema, for example requests in the report: required fields only. */
export function exampleValue(schema: JsonSchema, depth = 0): unknown {
  if (typeof schema.$handle === 'string') return `<${schema.$handle} handle>`;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || isRecord(schema.properties)) {
    if (depth > 4) return {};
    const properties = isRecord(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const out: Record<string, unknown> = {};
    for (const name of required) if (typeof name === 'string' && properties[name] !== undefined) out[name] = exampleValue(properties[name], depth + 1);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return false;
  return 'example';
}

/** A URI matching a template, each variable filled with `example`. */
export function exampleUri(template: string): string {
  return template.replace(/\{([+#./;?&]?)([^{}]*)\}/g, (_m, op: string, specs: string) => {
    const names = specs.split(',').map((s) => s.replace(/(\*|:\d+)$/, ''));
    if (op === '?' || op === '&') return `${op}${names.map((n) => `${n}=example`).join('&')}`;
    const prefix = op === '+' || op === '' ? '' : op;
    return prefix + names.map(() => 'example').join(',');
  });
}

/** Whether any subschema of a tool's input is a handle (used to explain example values). */
export function usesHandles(model: ServerModel): boolean {
  let found = false;
  for (const tool of model.tools) walkSchema(tool.input, (node) => (found ||= typeof node.$handle === 'string'));
  return found;
}
