import { createRequire } from 'node:module';
import type Ajv2020Module from 'ajv/dist/2020.js';
import { mapSchema } from '../../model/schema-walk.js';
import { entriesOf, isRecord } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

// ajv is loaded (synchronously, as rules are) only for a manifest with tool examples: most runs have none,
// and loading it cost more than the rest of validation. It is CommonJS: its class is the export's `default`.
const require = createRequire(import.meta.url);
let Ajv2020: typeof Ajv2020Module.default | undefined;

/** A tool schema as the wire sees it: every `$handle` is a string. */
function wireSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return mapSchema(schema, (node) => (typeof node.$handle === 'string' ? { type: 'string' } : node)) as Record<
    string,
    unknown
  >;
}

/**
 * Each problem of `value` against `schema`, as "at /path: message"; null
 * when the schema itself does not compile (another rule reports it).
 */
function problems(schema: Record<string, unknown>, value: unknown): string[] | null {
  try {
    Ajv2020 ??= (require('ajv/dist/2020.js') as typeof Ajv2020Module).default;
    // Own properties only, as the generated validators when a schema names `constructor` or another inherited member.
    const ajv = new Ajv2020({ allErrors: true, ownProperties: true, strict: false, validateFormats: false });
    const validate = ajv.compile(wireSchema(schema));
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath === '' ? 'the value' : e.instancePath} ${e.message ?? 'is invalid'}`,
    );
  } catch {
    return null;
  }
}

/** Tool examples are valid for the tool's input and output schemas; prompt examples name declared arguments. */
export function checkExamples(ctx: RuleContext): void {
  const data = isRecord(ctx.data) ? ctx.data : {};
  for (const [name, tool] of entriesOf(data.tools)) {
    if (!isRecord(tool) || !Array.isArray(tool.examples)) continue;
    tool.examples.forEach((example: unknown, i) => {
      if (!isRecord(example)) return;
      for (const part of ['input', 'output'] as const) {
        const schema = tool[part];
        if (!(part in example) || !isRecord(schema)) continue;
        const found = problems(schema, example[part]);
        if (found === null || found.length === 0) continue;
        ctx.report(
          'example-invalid',
          ['tools', name, 'examples', i, part],
          `example ${i + 1} of tool "${name}": its ${part} does not ` +
            `match the tool's ${part} schema (${found.join('; ')})`,
          `change the example's ${part}, or the tool's ${part} schema`,
        );
      }
      if ('output' in example && 'error' in example) {
        ctx.report(
          'example-invalid',
          ['tools', name, 'examples', i],
          `example ${i + 1} of tool "${name}" expects both an output and an error`,
          'keep "output" for a call that succeeds, "error" for one that fails',
        );
      }
    });
  }
  for (const [name, prompt] of entriesOf(data.prompts)) {
    if (!isRecord(prompt) || !Array.isArray(prompt.examples)) continue;
    const declared = entriesOf(prompt.arguments);
    prompt.examples.forEach((example: unknown, i) => {
      if (!isRecord(example) || !isRecord(example.arguments)) return;
      const given = Object.keys(example.arguments);
      const unknown = given.filter((arg) => !declared.some(([declaredName]) => declaredName === arg));
      const missing = declared
        .filter(([arg, spec]) => isRecord(spec) && spec.required === true && !given.includes(arg))
        .map(([arg]) => arg);
      if (unknown.length === 0 && (missing.length === 0 || 'error' in example)) return;
      const why =
        unknown.length > 0
          ? `names undeclared arguments: ${unknown.join(', ')}`
          : `lacks required arguments: ${missing.join(', ')}`;
      ctx.report(
        'example-invalid',
        ['prompts', name, 'examples', i, 'arguments'],
        `example ${i + 1} of prompt "${name}" ${why}`,
        'use the arguments the prompt declares, or expect an "error"',
      );
    });
  }
}
