import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './support/golden.js';

// Every golden output tree, every example and the runtime templates compile together in one
// strict program against the pinned SDK types, with the generated projects' own settings.
describe('generated code type-checks', () => {
  it('golden trees, examples and runtime templates: zero diagnostics under strict', () => {
    const dir = path.join(repoRoot, '.test-out', 'typecheck');
    mkdirSync(dir, { recursive: true });
    const tsconfig = {
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      include: ['../../test/fixtures/valid/*/expected/src/**/*.ts', '../../test/fixtures/valid/*/expected/test/**/*.ts', '../../examples/*/src/**/*.ts', '../../examples/*/test/**/*.ts', '../../templates/runtime/*.ts'],
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    const result = spawnSync(tsc, ['-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 120_000 });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
