/**
 * Emits `src/generated/types.gen.ts`: one input and one output type per tool,
 * argument types per prompt, variable types per resource (all compiled from
 * JSON Schema by json-schema-to-typescript), branded handle types, and the
 * handler types that tie each manifest name to its signature.
 */
import { StructureKind, type StatementStructures } from 'ts-morph';
import type { Finding } from '../../diagnostics/index.js';
import { generatedPaths } from '../../model/layout.js';
import type { JsonSchema, ServerModel } from '../../model/types.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { createProject, finalText, formatSourceFile } from '../shared/project.js';
import { compileSchema, prepareSchema } from './compile.js';
import { collectDeclarations, type Declaration } from './declarations.js';
import { handlerTypeStatements } from './handler-types.js';

/** The types file and any type-name collisions found while building it. */
export interface TypesResult {
  readonly file: GeneratedFile;
  readonly diagnostics: readonly Finding[];
}

function argsSchema(properties: Record<string, JsonSchema>, required: readonly string[]): Record<string, unknown> {
  return { type: 'object', properties, required: [...required], additionalProperties: false };
}

/** Builds the types file; collisions between generated type names are reported, not renamed. */
export async function emitTypes(model: ServerModel, ctx: EmitContext): Promise<TypesResult> {
  const units: { owner: string; pointer: string; name: string; schema: Record<string, unknown> }[] = [];
  for (const tool of model.tools) {
    units.push({ owner: `tool "${tool.name}" input`, pointer: `${tool.pointer}/input`, name: tool.names.inputType, schema: prepareSchema(tool.input, model.handles, 'input') });
    if (tool.output !== null) units.push({ owner: `tool "${tool.name}" output`, pointer: `${tool.pointer}/output`, name: tool.names.outputType, schema: prepareSchema(tool.output, model.handles, 'output') });
  }
  for (const resource of model.resources.filter((r) => r.variables.length > 0)) {
    const properties = Object.fromEntries(resource.variables.map((v) => [v.name, v.exploded ? { type: 'array', items: { type: 'string' } } : { type: 'string' }]));
    units.push({ owner: `resource "${resource.name}"`, pointer: resource.pointer, name: resource.names.argsType, schema: argsSchema(properties, resource.variables.map((v) => v.name)) });
  }
  for (const prompt of model.prompts) {
    const properties = Object.fromEntries(prompt.arguments.map((a) => [a.name, a.description === null ? { type: 'string' } : { type: 'string', description: a.description }]));
    units.push({ owner: `prompt "${prompt.name}"`, pointer: prompt.pointer, name: prompt.names.argsType, schema: argsSchema(properties, prompt.arguments.filter((a) => a.required).map((a) => a.name)) });
  }

  const compiled: { owner: string; pointer: string; text: string }[] = [];
  for (const unit of units) compiled.push({ owner: unit.owner, pointer: unit.pointer, text: await compileSchema(unit.schema, unit.name) });

  const reserved: Declaration[] = model.handles.map((h) => ({ name: h.typeName, text: '', owner: `handle kind "${h.name}"` }));
  for (const t of model.tools.filter((tool) => tool.output === null)) reserved.push({ name: t.names.outputType, text: '', owner: `tool "${t.name}" output` });
  for (const r of model.resources.filter((res) => res.variables.length === 0)) reserved.push({ name: r.names.argsType, text: '', owner: `resource "${r.name}"` });
  const { declarations, diagnostics } = collectDeclarations(compiled, reserved);

  const statements: (string | StatementStructures)[] = [
    { kind: StructureKind.ImportDeclaration, isTypeOnly: true, namedImports: ['HandlerContext', 'PromptReply', 'ResourceReply', 'ToolContent', 'ToolSdkResult'], moduleSpecifier: './runtime/handler.gen.js' },
    // handles.gen.ts exists only in projects with handle kinds.
    ...(model.handles.length === 0
      ? []
      : [{ kind: StructureKind.ImportDeclaration, isTypeOnly: true, namedImports: ['Handle', 'HandleIssuer', 'Verified'], moduleSpecifier: './runtime/handles.gen.js' } satisfies StatementStructures]),
    ...model.handles.map(
      (h): StatementStructures => ({ kind: StructureKind.TypeAlias, isExported: true, name: h.typeName, type: `Handle<${JSON.stringify(h.name)}>`, docs: [`A ${h.name} handle: an opaque token minted by this server.`] }),
    ),
    ...model.tools
      .filter((t) => t.output === null)
      .map((t): StatementStructures => ({ kind: StructureKind.TypeAlias, isExported: true, name: t.names.outputType, type: 'ToolContent', docs: [`Tool "${t.name}" has no output schema: it returns text or content blocks.`] })),
    ...model.resources
      .filter((r) => r.variables.length === 0)
      .map((r): StatementStructures => ({ kind: StructureKind.TypeAlias, isExported: true, name: r.names.argsType, type: 'Record<string, never>', docs: [`Resource "${r.name}" has a fixed URI: no variables.`] })),
    ...declarations.map((d) => d.text),
    ...handlerTypeStatements(model),
  ];
  const file = createProject().createSourceFile('types.gen.ts', { statements });
  const text = formatSourceFile(file);
  return { file: { path: generatedPaths.types, contents: finalText(`${tsBanner(ctx)}\n${text}`), ownership: 'generated' }, diagnostics };
}
