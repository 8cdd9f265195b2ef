import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/config/index.js';
import { buildProject } from '../support/build-project.js';
import { repoRoot } from '../support/paths.js';

// A server carries only the runtime its manifest uses, and what every server carries (the core: start, register,
// handler, spec, testing) is paid by each of them at every start. The budget is in bytes, which formatting barely
// moves, not in lines, which reward long ones. A change that raises it says why in its commit message; the history of
// every raise is in git.
const budgetBytes = 98_643;

describe('runtime size', () => {
  it(`a one-tool stdio server ships at most ${budgetBytes} bytes of runtime`, async () => {
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
      'src/generated/runtime/call.gen.ts',
      'src/generated/runtime/handler.gen.ts',
      'src/generated/runtime/hooks.gen.ts',
      'src/generated/runtime/legacy.gen.ts',
      'src/generated/runtime/lifecycle.gen.ts',
      'src/generated/runtime/log.gen.ts',
      'src/generated/runtime/params.gen.ts',
      'src/generated/runtime/register.gen.ts',
      'src/generated/runtime/spec.gen.ts',
      'src/generated/runtime/start.gen.ts',
      'src/generated/runtime/startup.gen.ts',
      'src/generated/runtime/stdio.gen.ts',
      'src/generated/runtime/testing.gen.ts',
    ]);
    const bytes = runtime.reduce((sum, file) => sum + Buffer.byteLength(file.contents), 0);
    expect(bytes).toBeLessThanOrEqual(budgetBytes);
  });

  it('ships upstream*.gen.ts and bindings.gen.ts only to a server with a bound tool', async () => {
    const manifest = path.join('test', 'fixtures', 'bindings', 'mcp.yaml');
    const options = resolveOptions({ manifest, out: path.join('.test-out', 'runtime-budget-bindings') }, repoRoot);
    const result = await buildProject(
      options,
      '0.0.0-golden',
      { handlers: new Map(), previouslyGenerated: null },
      repoRoot,
    );
    const paths = result.files.map((file) => file.path);
    expect(paths.filter((p) => /upstream|bindings/.test(p))).toEqual([
      'src/generated/bindings.gen.ts',
      'src/generated/runtime/upstream-answer.gen.ts',
      'src/generated/runtime/upstream-credentials.gen.ts',
      'src/generated/runtime/upstream-request.gen.ts',
      'src/generated/runtime/upstream-spec.gen.ts',
      'src/generated/runtime/upstream-wire.gen.ts',
      'src/generated/runtime/upstream.gen.ts',
    ]);
    // A bound tool has no handler file: the binding is its handler.
    expect(paths.filter((p) => p.startsWith('src/handlers/'))).toEqual([]);
  });
});
