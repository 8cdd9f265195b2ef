/**
 * What `src/generated/validators.gen.ts` says of the tool schemas it does not hold as code. The SDK compiles those on
 * their first use, except a schema that names a member every object inherits (`constructor`, `toString`, ...): the
 * SDK's validators find that member on every object's prototype, so such a schema is compiled on first use by
 * own-properties.gen.ts, which reads own properties only, on Node (ajv) and on Workers (@cfworker/json-schema).
 */
import { generatedPaths } from '../../model/layout.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { key } from '../shared/literal.js';
import { namesInheritedMember } from './inherited.js';

/** A tool's name and the schemas the registry lists for it. */
export interface ToolSchemas {
  readonly name: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>> | null;
}

/** The imports a validators module needs for its run-time validators, when it has some. */
export const ownPropertiesImports = [
  "import { registry } from './registry.gen.js';",
  "import { ownProperties } from './runtime/own-properties.gen.js';",
];

/**
 * The run-time validator of one tool schema without code, as an expression, or null when the SDK's own first-use
 * compile gives the right verdicts (the schema names no inherited member).
 */
export function runTimeValidator(
  tool: string,
  side: 'input' | 'output',
  schema: Readonly<Record<string, unknown>>,
): string | null {
  return namesInheritedMember(schema)
    ? `ownProperties(registry, ${JSON.stringify(tool)}, ${JSON.stringify(side)})`
    : null;
}

/** The module of a project whose validators are all compiled on first use (more than `max` tool schemas). */
export function lazyValidators(
  tools: readonly ToolSchemas[],
  schemas: number,
  max: number,
  ctx: EmitContext,
): GeneratedFile {
  const entries = tools.flatMap((tool) => {
    const fields = (['input', 'output'] as const).flatMap((side) => {
      const schema = side === 'input' ? tool.inputSchema : tool.outputSchema;
      const expression = schema === null ? null : runTimeValidator(tool.name, side, schema);
      return expression === null ? [] : [`${side}: ${expression}`];
    });
    return fields.length === 0 ? [] : [`  ${key(tool.name)}: { ${fields.join(', ')} },`];
  });
  const text = [
    tsBanner(ctx),
    "import type { PrecompiledValidators } from './runtime/register.gen.js';",
    ...(entries.length === 0 ? [] : ownPropertiesImports),
    '',
    '/**',
    ` * None${entries.length === 0 ? '' : ' as code'}: this project has ${schemas} tool schemas, ` +
      `more than ${max}. Loading that many`,
    ' * validators as code at every start would cost more than compiling, on first use, the few a session',
    ' * calls: the SDK does.',
    ...(entries.length === 0
      ? []
      : [
          ' * The schemas here name a member every object inherits: compiled on first use too, to read own',
          ' * properties only.',
        ]),
    ' */',
    entries.length === 0
      ? 'export const validators: PrecompiledValidators = {};'
      : `export const validators: PrecompiledValidators = {\n${entries.join('\n')}\n};`,
    '',
  ].join('\n');
  return { path: generatedPaths.validators, contents: text, ownership: 'generated' };
}
