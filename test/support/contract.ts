import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { repoRoot } from './paths.js';

const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');

/**
 * Copies a generated project to .test-out/contract/<name>, compiles it in place and runs its own `node --test`
 * with only PATH and `env` in the environment (so nothing of the caller's, MCP_GEN_TEST_WRITES included, leaks in).
 */
export function runContract(
  source: string,
  name: string,
  env: Readonly<Record<string, string>> = {},
): SpawnSyncReturns<string> {
  const dir = path.join(repoRoot, '.test-out', 'contract', name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}dist`) && !src.includes('node_modules'),
  });
  return runCompiled(dir, env);
}

/** Compiles the project in `dir` and runs its tests (see runContract). */
export function runCompiled(dir: string, env: Readonly<Record<string, string>> = {}): SpawnSyncReturns<string> {
  const build = spawnSync(tsc, ['-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 120_000 });
  expect(build.stdout + build.stderr).toBe('');
  const tests = readdirSync(path.join(dir, 'dist', 'test'))
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => path.join(dir, 'dist', 'test', f));
  return spawnSync(process.execPath, ['--test', ...tests], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 180_000,
    env: { PATH: process.env.PATH, ...env },
  });
}
