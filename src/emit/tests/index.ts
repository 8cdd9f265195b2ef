/**
 * Emits the contract tests of a generated project: the test runner code from
 * templates/tests (real TypeScript, identical for every project) and a plan
 * module with this server's data: which checks run (the same list DESIGN.md's
 * verification plan prints) and sample arguments for every tool.
 */
import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import { contractTestPath, generatedPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { exampleValue } from '../report/examples.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { toLiteral } from '../shared/literal.js';
import { createProject, finalText, formatSourceFile } from '../shared/project.js';
import { verificationPlan } from '../shared/verification.js';

function planModule(model: ServerModel, ctx: EmitContext): string {
  const samples = Object.fromEntries(model.tools.map((t) => [t.name, exampleValue(t.input, 0, (kind) => ({ $mintHandle: kind }))]));
  const file = createProject().createSourceFile('contract-plan.gen.ts', {
    statements: [
      {
        kind: StructureKind.Interface,
        isExported: true,
        name: 'PlanItem',
        docs: ['One check of the verification plan in DESIGN.md.'],
        properties: [
          { name: 'id', type: 'string', isReadonly: true },
          { name: 'target', type: 'string', hasQuestionToken: true, isReadonly: true },
          { name: 'topic', type: 'string', isReadonly: true },
          { name: 'test', type: 'string', isReadonly: true },
        ],
      },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['The checks this server\'s contract tests run, named as in DESIGN.md.'],
        declarations: [{ name: 'plan', type: 'readonly PlanItem[]', initializer: (writer) => writer.write(toLiteral(verificationPlan(model))) }],
      },
      {
        kind: StructureKind.Interface,
        isExported: true,
        name: 'Example',
        docs: ['One call of the manifest\'s `examples` and what it must answer.'],
        properties: [
          { name: 'kind', type: "'tool' | 'resource' | 'prompt'", isReadonly: true },
          { name: 'name', type: 'string', isReadonly: true },
          { name: 'params', type: 'Readonly<Record<string, unknown>>', isReadonly: true, docs: ['`{ name, arguments }` for a tool or prompt, `{ uri }` for a resource.'] },
          { name: 'output', type: 'unknown', isReadonly: true, docs: ['The expected `structuredContent` of a tool, or null.'] },
          { name: 'text', type: 'string | null', isReadonly: true, docs: ['The expected text of the first content or message, or null.'] },
          { name: 'error', type: 'string | null', isReadonly: true, docs: ['Text the error must contain, or null for a success.'] },
        ],
      },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['The examples of the manifest, in order: each one is a contract test that calls the handler.'],
        declarations: [{ name: 'examples', type: 'readonly Example[]', initializer: (writer) => writer.write(toLiteral(model.examples)) }],
      },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['Valid sample arguments per tool (required fields only); `{ $mintHandle: kind }` becomes a fresh handle.'],
        declarations: [{ name: 'samples', type: 'Readonly<Record<string, unknown>>', initializer: (writer) => writer.write(toLiteral(samples)) }],
      },
    ],
  });
  return finalText(`${tsBanner(ctx)}\n${formatSourceFile(file)}`);
}

/** `test/contract.gen.test.ts` and its helpers. */
export function emitContractTests(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  const files: GeneratedFile[] = [{ path: generatedPaths.contractPlan, contents: planModule(model, ctx), ownership: 'generated' }];
  for (const [template, text] of ctx.templates) {
    if (!template.startsWith('tests/') || !template.endsWith('.ts')) continue;
    files.push({ path: contractTestPath(template), contents: finalText(`${tsBanner(ctx)}\n${text}`), ownership: 'generated' });
  }
  return files;
}
