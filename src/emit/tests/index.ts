/**
 * Emits the contract tests of a generated project: the test runner code from
 * templates/tests (real TypeScript, identical for every project) and a plan
 * module with this server's data: which checks run (the same list DESIGN.md's
 * verification plan prints) and sample arguments for every tool.
 */
import type { Example, PlanItem } from '../../../templates/tests/contract-types.gen.js';
import { contractTestPath, generatedPaths, moduleSpecifier, runtimePath } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { exampleValue } from '../report/examples.js';
import { runtimeFeatures } from '../runtime/index.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { singleQuoted, toLiteral } from '../shared/literal.js';
import { documented, finalText, importDeclaration, moduleText } from '../shared/ts-text.js';
import { verificationPlan } from '../shared/verification.js';

/** The template that declares the plan's types, and the runtime's handle module, as the plan module imports them. */
const typesModule = moduleSpecifier(generatedPaths.contractPlan, contractTestPath('tests/contract-types.gen.ts'));
const handlesModule = moduleSpecifier(generatedPaths.contractPlan, runtimePath('runtime/handles.gen.ts'));

function planModule(model: ServerModel, ctx: EmitContext): string {
  const samples = Object.fromEntries(
    model.tools.map((t) => [t.name, exampleValue(t.input, 0, (kind) => ({ $mintHandle: kind }))]),
  );
  // Typed by the template the project's tests read them with: the emitter and contract.gen.test.ts cannot drift.
  const plan: readonly PlanItem[] = verificationPlan(model);
  const examples: readonly Example[] = model.examples;
  const text = moduleText(
    [importDeclaration(['Example', 'HandlesModule', 'PlanItem'], typesModule, true)],
    [
      documented(
        "The checks this server's contract tests run, named as in DESIGN.md.",
        `export const plan: readonly PlanItem[] = ${toLiteral(plan)};`,
      ),
      documented(
        'The examples of the manifest, in order: each one is a contract test that calls the handler.',
        `export const examples: readonly Example[] = ${toLiteral(examples)};`,
      ),
      documented(
        'Valid sample arguments per tool (required fields only); `{ $mintHandle: kind }` becomes a fresh handle.',
        `export const samples: Readonly<Record<string, unknown>> = ${toLiteral(samples)};`,
      ),
      documented(
        'The id each handle kind is minted for in the samples (`exampleId`), valid where your store expects one.',
        `export const handleIds: Readonly<Record<string, string>> = ${toLiteral(
          Object.fromEntries(model.handles.map((h) => [h.name, h.exampleId])),
        )};`,
      ),
      documented(
        'The runtime module whose codec mints handles for the samples; null when the server has no handle kinds.',
        `export const handlesModule: HandlesModule = ${
          runtimeFeatures(model).handles ? `() => import(${singleQuoted(handlesModule)})` : 'null'
        };`,
      ),
    ],
  );
  return finalText(`${tsBanner(ctx)}\n${text}`);
}

/** `test/contract.gen.test.ts` and its helpers. */
export function emitContractTests(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: generatedPaths.contractPlan, contents: planModule(model, ctx), ownership: 'generated' },
  ];
  for (const [template, text] of ctx.templates) {
    if (!template.startsWith('tests/') || !template.endsWith('.ts')) continue;
    files.push({
      path: contractTestPath(template),
      contents: finalText(`${tsBanner(ctx)}\n${text}`),
      ownership: 'generated',
      copiedFrom: template,
    });
  }
  return files;
}
