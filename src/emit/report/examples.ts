import RandExpModule from 'randexp';
import type { JsonSchema } from '../../model/types.js';
import { isRecord } from '../../util/guards.js';

/** How a handle appears in an example: a placeholder in the report, a marker the contract tests replace. */
export type HandleExample = (kind: string) => unknown;

const placeholder: HandleExample = (kind) => `<${kind} handle>`;

/** A plausible value for a schema, for example requests in the report: required fields only. */
export function exampleValue(schema: JsonSchema, depth = 0, handle: HandleExample = placeholder): unknown {
  if (typeof schema.$handle === 'string') return handle(schema.$handle);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || isRecord(schema.properties)) {
    if (depth > 4) return {};
    const properties = isRecord(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const out: Record<string, unknown> = {};
    for (const name of required)
      if (typeof name === 'string' && properties[name] !== undefined)
        out[name] = exampleValue(properties[name], depth + 1, handle);
    return out;
  }
  if (type === 'array') {
    const items = isRecord(schema.items) ? (schema.items as JsonSchema) : {};
    // One item by default, so that handles inside arrays appear in samples; never more than maxItems.
    const count = Math.min(
      Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, 1),
      typeof schema.maxItems === 'number' ? schema.maxItems : 1,
    );
    return Array.from({ length: count }, () => exampleValue(items, depth + 1, handle));
  }
  if (type === 'integer' || type === 'number')
    return typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.maximum === 'number'
        ? Math.min(1, schema.maximum)
        : 1;
  if (type === 'boolean') return false;
  const formats: Record<string, string> = {
    email: 'someone@example.com',
    uri: 'https://example.com/',
    date: '2026-01-01',
    'date-time': '2026-01-01T00:00:00Z',
    uuid: '00000000-0000-4000-8000-000000000000',
  };
  const text =
    typeof schema.pattern === 'string'
      ? matching(schema.pattern)
      : typeof schema.format === 'string' && formats[schema.format] !== undefined
        ? (formats[schema.format] ?? 'example')
        : 'example';
  const minimum = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return text.length >= minimum ? text : text.padEnd(minimum, 'x');
}

/**
 * The shortest string randexp builds for `pattern`, always the same one: every
 * random choice takes its lowest option. 'example' when the pattern allows it.
 */
// randexp's CommonJS export is the class itself; its typings describe an ES default export.
const RandExp = RandExpModule as unknown as typeof RandExpModule.default;

function matching(pattern: string): string {
  try {
    if (new RegExp(pattern, 'u').test('example')) return 'example';
    const generator = new RandExp(pattern);
    generator.randInt = (low: number) => low;
    generator.max = 8;
    return generator.gen();
  } catch {
    return 'example';
  }
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
