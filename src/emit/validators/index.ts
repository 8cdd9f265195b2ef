/**
 * Emits `src/generated/validators.gen.ts`: every tool's input and output
 * validator as code (ajv standalone), compiled here, at generate time, from
 * the same JSON Schemas the registry lists and with the options of the SDK's
 * own validator (`fromJsonSchema`: Ajv 2020, allErrors, not strict). A server
 * then compiles no schema at run time; its first `tools/call` skips building an
 * ajv instance and compiling, and the verdicts and messages stay the SDK's
 * (test/unit/validators-equivalence.test.ts checks both on a seeded corpus).
 * The module needs no package at run time: the two ajv helpers standalone code
 * may call are written into it. A schema this cannot reproduce exactly (a
 * `format`, whose checks live in ajv-formats; an `$id`; another dialect) gets
 * no entry and is compiled by the SDK on its first use, as before.
 *
 * A project with more tool schemas than `maxPrecompiledSchemas` gets none: every validator is compiled on its first
 * use. Its module would cost each start of the server more than it saves: loading the code of every validator of
 * a large API at every start outweighs compiling the few schemas a session validates (docs/benchmarks.md).
 */
import { createRequire } from 'node:module';
import { generatedPaths } from '../../model/layout.js';
import { namesInheritedMember } from './inherited.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { key } from '../shared/literal.js';
import { tsBanner } from '../shared/banner.js';
import { largeToolSchemas, toolSchemaCount } from '../shared/scale.js';
import { lazyValidators, ownPropertiesImports, runTimeValidator, type ToolSchemas } from './run-time.js';
import { SharedValidatorBatch, sharedDefsOf } from './shared.js';

/** Past this many tool schemas (inputs and outputs), none is compiled to code: see the head of this file. */
export const maxPrecompiledSchemas = largeToolSchemas;

export type { ToolSchemas };

/** An ajv runtime helper that standalone code refers to by `code` (a `require(...)` expression), e.g. `ucs2length`. */
interface Helper {
  readonly code: string;
  readonly name: string;
  readonly source: string;
}

/**
 * The runtime helpers standalone code may call, taken from the pinned ajv itself (each one's `code` is the `require` it
 * writes, its source is the function's own text), so the emitted module needs no package and copies nothing by hand.
 */
function loadHelpers(): readonly Helper[] {
  // Plain CommonJS modules: `require` reads them the same way under every loader.
  const require = createRequire(import.meta.url);
  return ['ajv/dist/runtime/ucs2length', 'ajv/dist/runtime/equal'].map((id) => {
    const helper = (require(id) as { default: ((...args: never[]) => unknown) & { code: string } }).default;
    return {
      code: helper.code,
      name: helper.name,
      source: `/** ajv's runtime helper \`${helper.name}\`, as the pinned ajv defines it. */\n${helper.toString()}`,
    };
  });
}

const dialects2020 = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'http://json-schema.org/draft/2020-12/schema',
]);

/**
 * Verdicts on nested values, by identity: a shared schema is the same object under the `$defs` of every tool
 * that reaches it (normalize/shared-schemas.ts), so it is walked once, not once per tool.
 */
const nestedVerdicts = new WeakMap<object, string | null>();

/** Why ajv standalone code could differ from the SDK's validator for `schema`, or null when it cannot. */
function unsupported(schema: unknown, root = true): string | null {
  if (schema === null || typeof schema !== 'object') return null;
  if (!root) {
    const known = nestedVerdicts.get(schema);
    if (known !== undefined) return known;
  }
  const verdict = unsupportedUncached(schema, root);
  if (!root) nestedVerdicts.set(schema, verdict);
  return verdict;
}

function unsupportedUncached(schema: object, root: boolean): string | null {
  if (Array.isArray(schema))
    return schema.map((item) => unsupported(item, false)).find((reason) => reason !== null) ?? null;
  const record = schema as Record<string, unknown>;
  if (typeof record.format === 'string') return 'format';
  if (typeof record.$id === 'string') return '$id';
  if (typeof record.$schema === 'string' && !(root && dialects2020.has(record.$schema.replace(/#$/, ''))))
    return '$schema';
  return (
    Object.values(record)
      .map((value) => unsupported(value, false))
      .find((reason) => reason !== null) ?? null
  );
}

/**
 * For each tool schema (`input3`, `output7`: side and registry index) that repeats an earlier one, the name of that
 * earlier one. An imported API repeats many (every operation on `{owner, repo}`, every answer that is a list of
 * issues); identical JSON is an identical schema, since the model keeps schemas in canonical key order.
 */
function firstNames(tools: readonly ToolSchemas[]): ReadonlyMap<string, string> {
  const byText = new Map<string, string>();
  const firstOf = new Map<string, string>();
  for (const [index, tool] of tools.entries())
    for (const [side, schema] of [
      ['input', tool.inputSchema],
      ['output', tool.outputSchema],
    ] as const) {
      if (schema === null) continue;
      const text = JSON.stringify(schema);
      const first = byText.get(text);
      if (first === undefined) byText.set(text, `${side}${index}`);
      else firstOf.set(`${side}${index}`, first);
    }
  return firstOf;
}

type Ajv = { compile(schema: object): unknown; removeSchema(schema: object): unknown };
type Standalone = (ajv: Ajv, validate: unknown) => string;

/** `code` with each runtime helper it calls named; null when it needs any other package at run time. */
function withHelpers(source: string, helpers: readonly Helper[], used: Set<Helper>): string | null {
  let code = source;
  for (const helper of helpers) {
    if (!code.includes(helper.code)) continue;
    used.add(helper);
    code = code.split(helper.code).join(helper.name);
  }
  // Any other runtime dependency (ajv's uri resolver, formats) would need a package at run time: leave it to the SDK.
  return code.includes('require(') ? null : code;
}

/** One standalone module exporting the validators `exports` names (export name to schema id), as an expression. */
function moduleExpression(
  exports: Readonly<Record<string, string>>,
  ajv: Ajv,
  standalone: Standalone,
  helpers: readonly Helper[],
  used: Set<Helper>,
): string | null {
  const code = withHelpers(standalone(ajv, exports), helpers, used);
  if (code === null || !code.startsWith('"use strict";')) return null;
  return `(() => {\n  const exports = {};\n  ${code.slice('"use strict";'.length)}\n  return exports;\n})()`;
}

/**
 * One validator as an expression: the standalone code in its own scope, its helpers named; null when it cannot be
 * emitted.
 */
function validatorExpression(
  schema: Readonly<Record<string, unknown>>,
  ajv: Ajv,
  standalone: Standalone,
  helpers: readonly Helper[],
  used: Set<Helper>,
): string | null {
  if (unsupported(schema) !== null) return null;
  const code = standalone(ajv, ajv.compile(schema));
  // ajv keeps every compiled schema with its source; only the text is needed from here on.
  ajv.removeSchema(schema);
  const head = /^"use strict";module\.exports = (validate\d+);module\.exports\.default = validate\d+;/.exec(code);
  if (head === null) return null;
  const named = withHelpers(code.slice(head[0].length), helpers, used);
  if (named === null) return null;
  return `(() => {\n  ${named}\n  return ${head[1]};\n})()`;
}

/**
 * `src/generated/validators.gen.ts` for `tools` (registry order); `shared` are the shared schemas' wire objects by
 * name, which a tool schema holds under `$defs` (see shared.ts).
 */
export async function emitValidators(
  tools: readonly ToolSchemas[],
  ctx: EmitContext,
  shared: ReadonlyMap<string, Readonly<Record<string, unknown>>> = new Map(),
): Promise<GeneratedFile> {
  const schemas = toolSchemaCount(tools);
  if (schemas > maxPrecompiledSchemas) return lazyValidators(tools, schemas, maxPrecompiledSchemas, ctx);
  // Loaded here, not at start-up: only a run that emits a project needs the compiler.
  const [{ default: Ajv2020 }, { default: standaloneModule }] = await Promise.all([
    import('ajv/dist/2020.js'),
    import('ajv/dist/standalone/index.js'),
  ]);
  const helpers = loadHelpers();
  // The SDK's options (AjvJsonSchemaValidator): formats stay with the SDK, so schemas using them are not emitted.
  // One instance for every schema: standalone code carries only what its own validator uses, and each one gets a scope
  // of its own. No optimization pass: it only drops unused names and folds constants in code nobody reads, and it
  // costs a large share of compiling for little less text.
  const ownProperties = [...tools.flatMap((t) => [t.inputSchema, t.outputSchema]), ...shared.values()].some(
    namesInheritedMember,
  );
  const ajv: Ajv = new Ajv2020.default({
    ...(ownProperties ? { ownProperties } : {}),
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { source: true, optimize: false },
  });
  const standalone = standaloneModule.default as unknown as Standalone;
  const used = new Set<Helper>();
  const constants: string[] = [];
  const entries: string[] = [];
  const batch = new SharedValidatorBatch(
    ajv as unknown as ConstructorParameters<typeof SharedValidatorBatch>[0],
    shared,
  );
  const firstOf = firstNames(tools);
  for (const [index, tool] of tools.entries()) {
    for (const [side, schema] of [
      ['input', tool.inputSchema],
      ['output', tool.outputSchema],
    ] as const)
      if (
        schema !== null &&
        firstOf.get(`${side}${index}`) === undefined &&
        unsupported(schema) === null &&
        sharedDefsOf(schema, shared).length > 0
      )
        batch.add(`${side}${index}`, schema);
  }
  const sharedModule =
    Object.keys(batch.exports).length === 0 ? null : moduleExpression(batch.exports, ajv, standalone, helpers, used);
  if (sharedModule !== null)
    constants.push(`/** Validators of the tool schemas that reach shared schemas. */\nconst shared = ${sharedModule};`);
  const emitted = new Set<string>();
  let ownAtRunTime = false;
  for (const [index, tool] of tools.entries()) {
    const fields: string[] = [];
    for (const [side, schema] of [
      ['input', tool.inputSchema],
      ['output', tool.outputSchema],
    ] as const) {
      if (schema === null) continue;
      const first = firstOf.get(`${side}${index}`);
      if (first !== undefined) {
        // The same schema as an earlier one: its validator, compiled once, serves both.
        if (emitted.has(first)) fields.push(`${side}: ${first}`);
        continue;
      }
      const batched = Object.hasOwn(batch.exports, `${side}${index}`);
      const code =
        batched && sharedModule === null
          ? null
          : batched
            ? `shared.${side}${index}`
            : validatorExpression(schema, ajv, standalone, helpers, used);
      const runTime = code === null ? runTimeValidator(tool.name, side, schema) : null;
      if (code === null && runTime === null) continue;
      const name = `${side}${index}`;
      ownAtRunTime ||= runTime !== null;
      constants.push(
        `/** ${JSON.stringify(tool.name)}: ${side}. */\nconst ${name} = ${runTime ?? `verdict(${code})`};`,
      );
      emitted.add(name);
      fields.push(`${side}: ${name}`);
    }
    if (fields.length > 0) entries.push(`  ${key(tool.name)}: { ${fields.join(', ')} },`);
  }
  const helperSources = helpers.filter((helper) => used.has(helper)).map((helper) => helper.source);
  const text = [
    tsBanner(ctx),
    "// @ts-nocheck: ajv standalone code, checked against the SDK's own validation by mcp-gen's tests " +
      'rather than by the type checker.',
    '',
    "import type { PrecompiledValidators } from './runtime/register.gen.js';",
    ...(ownAtRunTime ? ownPropertiesImports : []),
    '',
    ...helperSources.map((source) => `${source}\n`),
    "/** The Standard Schema verdict the SDK's `fromJsonSchema` gives: " +
      "the value, or ajv's `errorsText` as the one issue. */",
    'function verdict(check) {',
    '  return (value) => (check(value) ? { value } : ' +
      // biome-ignore lint/suspicious/noTemplateCurlyInString: emitted code that builds ajv's message in a template
      "{ issues: [{ message: check.errors.map((e) => `data${e.instancePath} ${e.message}`).join(', ') }] });",
    '}',
    '',
    ...constants.map((constant) => `${constant}\n`),
    '/** The validators compiled to code, by tool name; ' +
      'a schema without one is compiled by the SDK on its first use. */',
    entries.length === 0
      ? 'export const validators: PrecompiledValidators = {};'
      : `export const validators: PrecompiledValidators = {\n${entries.join('\n')}\n};`,
    '',
  ].join('\n');
  return { path: generatedPaths.validators, contents: text, ownership: 'generated' };
}
