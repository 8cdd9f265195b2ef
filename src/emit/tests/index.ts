/**
 * Emits the contract tests of a generated project: the test runner code from
 * templates/tests (real TypeScript, identical for every project) and a plan
 * module with this server's data: which checks run (the same list DESIGN.md's
 * verification plan prints) and sample arguments for every tool.
 */
import { contractTestPath, generatedPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { exampleValue } from '../report/examples.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { toLiteral } from '../shared/literal.js';
import { docComment, documented, finalText, moduleText } from '../shared/ts-text.js';
import { verificationPlan } from '../shared/verification.js';

interface Member {
  readonly name: string;
  readonly type: string;
  readonly optional?: boolean;
  readonly doc?: string;
}

/** An exported interface of readonly members, each with its JSDoc comment if it has one. */
function readonlyInterface(name: string, members: readonly Member[]): string {
  const lines = members.map((m) => {
    const doc = m.doc === undefined ? '' : `${docComment(m.doc, '  ')}\n`;
    return `${doc}  readonly ${m.name}${m.optional === true ? '?' : ''}: ${m.type};`;
  });
  return `export interface ${name} {\n${lines.join('\n')}\n}`;
}

function planModule(model: ServerModel, ctx: EmitContext): string {
  const samples = Object.fromEntries(
    model.tools.map((t) => [t.name, exampleValue(t.input, 0, (kind) => ({ $mintHandle: kind }))]),
  );
  const text = moduleText(
    [],
    [
      documented(
        'One check of the verification plan in DESIGN.md.',
        readonlyInterface('PlanItem', [
          { name: 'id', type: 'string' },
          { name: 'target', type: 'string', optional: true },
          { name: 'topic', type: 'string' },
          { name: 'test', type: 'string' },
        ]),
      ),
      documented(
        "The checks this server's contract tests run, named as in DESIGN.md.",
        `export const plan: readonly PlanItem[] = ${toLiteral(verificationPlan(model))};`,
      ),
      documented(
        "One call of the manifest's `examples` and what it must answer.",
        readonlyInterface('Example', [
          { name: 'kind', type: "'tool' | 'resource' | 'prompt'" },
          { name: 'name', type: 'string' },
          {
            name: 'params',
            type: 'Readonly<Record<string, unknown>>',
            doc: '`{ name, arguments }` for a tool or prompt, `{ uri }` for a resource.',
          },
          { name: 'output', type: 'unknown', doc: 'The expected `structuredContent` of a tool, or null.' },
          { name: 'text', type: 'string | null', doc: 'The expected text of the first content or message, or null.' },
          { name: 'error', type: 'string | null', doc: 'Text the error must contain, or null for a success.' },
        ]),
      ),
      documented(
        'The examples of the manifest, in order: each one is a contract test that calls the handler.',
        `export const examples: readonly Example[] = ${toLiteral(model.examples)};`,
      ),
      documented(
        'Valid sample arguments per tool (required fields only); `{ $mintHandle: kind }` becomes a fresh handle.',
        `export const samples: Readonly<Record<string, unknown>> = ${toLiteral(samples)};`,
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
