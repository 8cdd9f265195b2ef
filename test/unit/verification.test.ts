import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verificationPlan } from '../../src/emit/shared/verification.js';
import { runPipeline } from '../../src/pipeline.js';
import { repoRoot } from '../support/paths.js';

// The contract tests never run the handler of a tool that is not read-only unless the run opts in
// (MCP_GEN_TEST_WRITES=1): the plan marks such checks `writes`, and the model marks such examples.
async function modelOf(manifest: string) {
  const result = await runPipeline({ manifest, cwd: repoRoot }, 'normalize');
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.model!;
}

describe('verification plan and data', () => {
  it('notes: calls use the read-only search_notes; only the accepted approval and an example write', async () => {
    const model = await modelOf(path.join('examples', 'notes', 'mcp.yaml'));
    const plan = verificationPlan(model);
    const of = (id: string) => plan.filter((item) => item.id === id).map(({ target, writes }) => ({ target, writes }));
    expect(of('cache')).toEqual([{ target: 'search_notes', writes: undefined }]);
    expect(of('injection')).toEqual([{ target: 'summarize_note', writes: undefined }]);
    expect(of('approval')).toEqual([{ target: 'publish_note_draft', writes: undefined }]);
    expect(of('approved')).toEqual([{ target: 'publish_note_draft', writes: true }]);
    expect(plan.filter((item) => item.writes === true).map((item) => item.id)).toEqual(['approved']);
    expect(model.examples.map((e) => `${e.kind} ${e.name} ${e.writes}`)).toEqual([
      'tool search_notes false',
      'tool search_notes false',
      'tool start_note_draft true',
      'resource note false',
      'resource note false',
      'resource style_guide false',
      'prompt summarize_note false',
    ]);
  });

  it('without a read-only tool or a fixed prompt, the cache check makes no call and injection is opt-in', async () => {
    const dir = path.join(repoRoot, '.test-out', 'verification');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'mcp.yaml'),
      [
        'mcpGen: 1',
        'server: { name: writer, version: 1.0.0 }',
        'tools:',
        '  add:',
        '    description: Add a thing.',
        '    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }',
        '    input: { type: object, properties: { text: { type: string } }, additionalProperties: false }',
        '',
      ].join('\n'),
    );
    const plan = verificationPlan(await modelOf(path.join(dir, 'mcp.yaml')));
    const cache = plan.find((item) => item.id === 'cache');
    const injection = plan.find((item) => item.id === 'injection');
    expect([cache?.target, cache?.writes]).toEqual([undefined, undefined]);
    expect([injection?.target, injection?.writes]).toEqual(['add', true]);
  });

  it("a handle kind's exampleId reaches the model (default contract-test)", async () => {
    const model = await modelOf(path.join('test', 'fixtures', 'valid', 'prompts-and-templates', 'manifest.yaml'));
    expect(model.handles.map((h) => [h.name, h.exampleId])).toEqual([['loan', '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b']]);
  });
});
