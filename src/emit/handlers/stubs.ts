import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { ServerModel } from '../../model/types.js';
import type { HandlerPlan } from '../../plan/index.js';
import { facadeImport } from '../facade/index.js';
import { commentSafe } from '../shared/banner.js';
import type { GeneratedFile } from '../shared/files.js';
import { createProject, finalText, formatSourceFile } from '../shared/project.js';

const parameters = {
  ToolHandler: '(input, ctx)',
  ResourceHandler: '(uri, variables, ctx)',
  PromptHandler: '(args, ctx)',
} as const;

function describe(model: ServerModel, plan: HandlerPlan): string[] {
  const item =
    plan.kind === 'tool' ? model.tools.find((t) => t.name === plan.name) : plan.kind === 'resource' ? model.resources.find((r) => r.name === plan.name) : model.prompts.find((p) => p.name === plan.name);
  const lines = [`Handler of ${plan.kind} "${plan.name}".`];
  if (item?.title) lines.push('', commentSafe(item.title));
  if (item?.description) lines.push('', commentSafe(item.description));
  return [lines.join('\n')];
}

/** A new handler file: typed against the generated types, answering "not implemented yet" until written. */
export function emitStub(model: ServerModel, plan: HandlerPlan): GeneratedFile {
  const file = createProject().createSourceFile('stub.ts', {
    statements: [
      // Handlers import only from the facade, never from a runtime file.
      { kind: StructureKind.ImportDeclaration, namedImports: ['notImplemented', { name: plan.handlerType, isTypeOnly: true }], moduleSpecifier: facadeImport },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: describe(model, plan),
        declarations: [
          {
            name: plan.handler,
            type: `${plan.handlerType}<${JSON.stringify(plan.name).replace(/"/g, "'")}>`,
            initializer: (writer) =>
              writer
                .write(`async ${parameters[plan.handlerType]} => `)
                .block(() => {
                  writer.writeLine('// Your code goes here: mcp-gen never overwrites this file.');
                  writer.writeLine(`throw notImplemented('${plan.kind}', '${plan.name}');`);
                }),
          },
        ],
      },
    ],
  });
  return { path: plan.path, contents: finalText(formatSourceFile(file)), ownership: 'scaffold' };
}
