/**
 * Emits `src/generated/types.gen.ts`: one input and one output type per tool,
 * argument types per prompt, variable types per resource (all compiled from
 * JSON Schema by json-schema-to-typescript), branded handle types, and the
 * handler types that tie each manifest name to its signature.
 */
import type { Finding } from '../../diagnostics/index.js';
import { generatedPaths, moduleSpecifier, scaffoldPaths } from '../../model/layout.js';
import { reservedTypeNames } from '../../model/naming.js';
import type { JsonSchema, ServerModel } from '../../model/types.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { documented, importDeclaration, moduleFile } from '../shared/ts-text.js';
import { type PreparedSchema, prepareSchema, reusingCompile } from './compile.js';
import { layoutDeclaration } from './declaration-text.js';
import { collectDeclarations, type Declaration } from './declarations.js';
import { dynamicTypeStatements } from './dynamic-types.js';
import { handlerTypeStatements, lifecycleTypeStatements } from './handler-types.js';
import { type Memo, noMemo } from '../../util/memo.js';

/** The types file and any type-name collisions found while building it. */
export interface TypesResult {
  readonly file: GeneratedFile;
  readonly diagnostics: readonly Finding[];
}

function argsSchema(properties: Record<string, JsonSchema>, required: readonly string[]): PreparedSchema {
  const schema = { type: 'object', properties, required: [...required], additionalProperties: false };
  return prepareSchema(schema, [], 'output');
}

/**
 * The shared schemas a type of this file names: every one a typed tool reaches (through its schemas and theirs),
 * and every one no tool names at all (the user's, for their own code). A shared schema only bound tools use is left
 * out with them.
 */
function typedSchemas(
  model: ServerModel,
  typed: readonly ServerModel['tools'][number][],
  memo: Memo = noMemo,
): Set<string> {
  const byName = new Map(model.schemas.map((s) => [s.name, s]));
  const namedIn = (schema: unknown): string[] => {
    const text = JSON.stringify(schema ?? null);
    return [...text.matchAll(/"\$ref":"#\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? '');
  };
  // The shared schemas a tool names: a function of the tool alone.
  const named = (tool: ServerModel['tools'][number]) =>
    memo.recall('types.shared-refs', tool, (t) => [...namedIn(t.input), ...namedIn(t.output)]);
  const reach = (start: readonly string[], into: Set<string>) => {
    const queue = [...start];
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      if (into.has(name)) continue;
      into.add(name);
      queue.push(...(byName.get(name)?.refs ?? []));
    }
    return into;
  };
  const used = reach(model.tools.flatMap(named), new Set());
  const kept = reach(typed.flatMap(named), new Set());
  return reach(
    model.schemas.filter((s) => !used.has(s.name)).map((s) => s.name),
    kept,
  );
}

/**
 * Builds the types file; collisions between generated type names are reported, not renamed. `bound` names the
 * tools that a binding serves with no handler file: nothing of this project's code reads their input and output
 * types, so they are not compiled (a large imported API is mostly such tools, and compiling their schemas was most
 * of a generate's time). A handler file written for one brings its types on the next generate.
 */
export async function emitTypes(
  model: ServerModel,
  ctx: EmitContext,
  bound: ReadonlySet<string> = new Set(),
): Promise<TypesResult> {
  const typed = model.tools.filter((t) => !bound.has(t.name));
  const keep = bound.size === 0 ? null : typedSchemas(model, typed, ctx.memo);
  // Each unit's schema is prepared (a deep copy) only when compiled: prepared all at once, every tool's schema
  // would be held twice, as the model's and as the compiler's copy, until the last one is compiled.
  const units: { owner: string; pointer: string; name: string; schema: () => PreparedSchema }[] = [];
  const sharedTypes = new Map(model.schemas.map((s) => [s.name, s.typeName]));
  // Each shared schema is one declaration, compiled once; tool types name it (prepareSchema).
  for (const shared of model.schemas.filter((s) => keep === null || keep.has(s.name)))
    units.push({
      owner: `shared schema "${shared.name}"`,
      pointer: `/schemas/${shared.name}`,
      name: shared.typeName,
      schema: () => prepareSchema(shared.schema, model.handles, 'output', sharedTypes),
    });
  for (const tool of typed) {
    units.push({
      owner: `tool "${tool.name}" input`,
      pointer: `${tool.pointer}/input`,
      name: tool.names.inputType,
      schema: () => prepareSchema(tool.input, model.handles, 'input', sharedTypes),
    });
    const { output } = tool;
    if (output !== null)
      units.push({
        owner: `tool "${tool.name}" output`,
        pointer: `${tool.pointer}/output`,
        name: tool.names.outputType,
        schema: () => prepareSchema(output, model.handles, 'output', sharedTypes),
      });
  }
  for (const resource of model.resources.filter((r) => r.variables.length > 0)) {
    const properties = Object.fromEntries(
      resource.variables.map((v) => [
        v.name,
        v.exploded ? { type: 'array', items: { type: 'string' } } : { type: 'string' },
      ]),
    );
    units.push({
      owner: `resource "${resource.name}"`,
      pointer: resource.pointer,
      name: resource.names.argsType,
      schema: () =>
        argsSchema(
          properties,
          resource.variables.map((v) => v.name),
        ),
    });
  }
  for (const prompt of model.prompts) {
    const properties = Object.fromEntries(
      prompt.arguments.map((a) => [
        a.name,
        a.description === null ? { type: 'string' } : { type: 'string', description: a.description },
      ]),
    );
    units.push({
      owner: `prompt "${prompt.name}"`,
      pointer: prompt.pointer,
      name: prompt.names.argsType,
      schema: () =>
        argsSchema(
          properties,
          prompt.arguments.filter((a) => a.required).map((a) => a.name),
        ),
    });
  }

  const compiled: { owner: string; pointer: string; text: string }[] = [];
  const compile = reusingCompile();
  for (const unit of units)
    compiled.push({ owner: unit.owner, pointer: unit.pointer, text: await compile(unit.schema(), unit.name) });

  const reserved: Declaration[] = model.handles.map((h) => ({
    name: h.typeName,
    text: '',
    owner: `handle kind "${h.name}"`,
  }));
  for (const t of typed.filter((tool) => tool.output === null))
    reserved.push({ name: t.names.outputType, text: '', owner: `tool "${t.name}" output` });
  for (const r of model.resources.filter((res) => res.variables.length === 0))
    reserved.push({ name: r.names.argsType, text: '', owner: `resource "${r.name}"` });
  reserved.push(
    { name: 'Config', text: '', owner: 'the configuration (`config`)' },
    { name: 'Services', text: '', owner: 'the services `setup` returns' },
    { name: 'ReadyChecks', text: '', owner: 'the readiness checks `setup.ts` exports' },
  );
  for (const name of reservedTypeNames)
    if (name !== 'Config' && name !== 'Services')
      reserved.push({ name, text: '', owner: 'the generated handler types' });
  const { declarations, diagnostics } = collectDeclarations(compiled, reserved);

  const dynamic = model.resources.length > 0 || model.prompts.length > 0;
  const imports = [
    importDeclaration(
      ['HandlerContext', 'PromptReply', 'ReadyCheck', 'ResourceReply', 'ToolContent', 'ToolSdkResult'],
      './runtime/handler.gen.js',
      true,
    ),
    // dynamic.gen.ts ships with resources or prompts, which alone can have list or completion handlers.
    ...(dynamic
      ? [importDeclaration(['CompletionReply', 'ListPage', 'ListRequest'], './runtime/dynamic.gen.js', true)]
      : []),
    // handles.gen.ts exists only in projects with handle kinds.
    ...(model.handles.length === 0
      ? []
      : [importDeclaration(['Handle', 'HandleIssuer', 'Verified'], './runtime/handles.gen.js', true)]),
    // The user's setup: `Services` is what it returns, so handlers see it typed without declaring it twice.
    importDeclaration(['setup'], moduleSpecifier(generatedPaths.types, scaffoldPaths.setup), true),
  ];
  const statements = [
    ...model.handles.map((h) =>
      documented(
        `A ${h.name} handle: an opaque token minted by this server.`,
        `export type ${h.typeName} = Handle<${JSON.stringify(h.name)}>;`,
      ),
    ),
    ...typed
      .filter((t) => t.output === null)
      .map((t) =>
        documented(
          `Tool "${t.name}" has no output schema: it returns text or content blocks.`,
          `export type ${t.names.outputType} = ToolContent;`,
        ),
      ),
    ...model.resources
      .filter((r) => r.variables.length === 0)
      .map((r) =>
        documented(
          `Resource "${r.name}" has a fixed URI: no variables.`,
          `export type ${r.names.argsType} = Record<string, never>;`,
        ),
      ),
    ...declarations.map((d) => layoutDeclaration(d.text)),
    ...lifecycleTypeStatements(model),
    ...handlerTypeStatements(model, bound),
    ...(dynamic ? dynamicTypeStatements(model) : []),
  ];
  return {
    file: {
      path: generatedPaths.types,
      contents: moduleFile(tsBanner(ctx), imports, statements),
      ownership: 'generated',
    },
    diagnostics,
  };
}
