/**
 * Emits `src/generated/server.gen.ts`: imports every handler, checks them
 * against the generated handler types, and wraps every schema once, at module
 * scope. The SDK's HTTP entry builds a server per request, so nothing that
 * compiles a schema may run inside the factory.
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { ServerModel } from '../../model/types.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { createProject, finalText, formatSourceFile } from '../shared/project.js';

function importFrom(file: string): string {
  // handler files live at src/handlers/<kind>/<name>.ts; this file at src/generated/.
  return `../${file.replace(/^src\//, '').replace(/\.ts$/, '.js')}`;
}

function handlerMap(entries: readonly { name: string; alias: string }[]): string {
  return entries.length === 0 ? '{}' : `{\n${entries.map((e) => `  ${e.name}: ${e.alias},`).join('\n')}\n}`;
}

/** `src/generated/server.gen.ts`. */
export function emitServer(model: ServerModel, ctx: EmitContext): GeneratedFile {
  const prompts = model.prompts.filter((p) => p.messages === null);
  const handlerImports: StatementStructures[] = [
    ...model.tools.map((t) => ({ name: t.names.handler, alias: t.names.importAlias, file: t.names.file })),
    ...model.resources.map((r) => ({ name: r.names.handler, alias: r.names.importAlias, file: r.names.file })),
    ...prompts.map((p) => ({ name: p.names.handler, alias: p.names.importAlias, file: p.names.file })),
  ].map((h) => ({ kind: StructureKind.ImportDeclaration, namedImports: [{ name: h.name, alias: h.alias }], moduleSpecifier: importFrom(h.file) }));

  const constant = (name: string, type: string, initializer: string, doc: string): StatementStructures => ({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    docs: [doc],
    declarations: [{ name, type, initializer }],
  });

  const file = createProject().createSourceFile('server.gen.ts', {
    statements: [
      { kind: StructureKind.ImportDeclaration, namedImports: ['compileSchemas'], moduleSpecifier: './runtime/register.gen.js' },
      { kind: StructureKind.ImportDeclaration, isTypeOnly: true, namedImports: ['ServerDefinition'], moduleSpecifier: './runtime/start.gen.js' },
      { kind: StructureKind.ImportDeclaration, namedImports: ['registry'], moduleSpecifier: './registry.gen.js' },
      { kind: StructureKind.ImportDeclaration, isTypeOnly: true, namedImports: ['PromptHandlers', 'ResourceHandlers', 'ToolHandlers'], moduleSpecifier: './types.gen.js' },
      ...handlerImports,
      constant('tools', 'ToolHandlers', handlerMap(model.tools.map((t) => ({ name: t.name, alias: t.names.importAlias }))), 'The tool handlers; a handler whose signature drifted from the manifest fails to type-check here.'),
      constant('resources', 'ResourceHandlers', handlerMap(model.resources.map((r) => ({ name: r.name, alias: r.names.importAlias }))), 'The resource handlers.'),
      constant('prompts', 'PromptHandlers', handlerMap(prompts.map((p) => ({ name: p.name, alias: p.names.importAlias }))), 'The handlers of prompts without fixed messages.'),
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['This server: registry, handlers, and every schema wrapped once, here at module scope.'],
        declarations: [{ name: 'definition', type: 'ServerDefinition', initializer: '{ registry, schemas: compileSchemas(registry), handlers: { tools, resources, prompts } }' }],
      },
    ],
  });
  return { path: 'src/generated/server.gen.ts', contents: finalText(`${tsBanner(ctx)}\n${formatSourceFile(file)}`), ownership: 'generated' };
}
