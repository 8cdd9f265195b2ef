import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { buildProject } from '../../src/generate.js';
import { repoRoot } from '../support/golden.js';

// A server carries only the runtime its manifest uses. The one-tool stdio manifest without auth,
// handles or approvals once shipped 1,631 runtime lines (approval, auth, HTTP and handle code it
// never loads included); it may ship at most 40% of that (652), plus 18 lines since a handler outlives its
// caller so that an idempotency claim waits for its real outcome, and 12 for the typed module slots
// (RuntimeModules in start.gen.ts) that replaced computed import specifiers (issues 20 and 21).
describe('runtime size', () => {
  it('a one-tool stdio server ships at most 682 runtime lines', async () => {
    const manifest = path.join('test', 'fixtures', 'valid', 'minimal', 'manifest.yaml');
    const options = resolveOptions({ manifest, out: path.join('.test-out', 'runtime-budget') }, repoRoot);
    const result = await buildProject(
      options,
      '0.0.0-golden',
      { handlers: new Map(), previouslyGenerated: null },
      repoRoot,
    );
    const runtime = result.files.filter((file) => file.path.startsWith('src/generated/runtime/'));
    expect(runtime.map((file) => file.path)).toEqual([
      'src/generated/runtime/handler.gen.ts',
      'src/generated/runtime/register.gen.ts',
      'src/generated/runtime/spec.gen.ts',
      'src/generated/runtime/start.gen.ts',
    ]);
    const lines = runtime.reduce((sum, file) => sum + file.contents.split('\n').length - 1, 0);
    expect(lines).toBeLessThanOrEqual(682);
  });
});
