import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';

/** True when the run should rewrite golden files instead of comparing (`UPDATE_GOLDEN=1 npm test`). */
export const updateGolden = process.env.UPDATE_GOLDEN === '1';

/** Compares `actual` with the golden file byte for byte, or rewrites it under UPDATE_GOLDEN=1. */
export function expectGolden(file: string, actual: string): void {
  if (updateGolden) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file))
    throw new Error(`missing golden file ${file}; run UPDATE_GOLDEN=1 npm test and review the diff`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** The repository root, for paths in tests. */
export const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/** Every file under `dir`, as sorted project-relative paths. */
export function listTree(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? listTree(full, `${prefix}${name}/`) : [`${prefix}${name}`];
    })
    .sort();
}

/** Runs `mcp-gen ...args` in-process in `cwd`, capturing everything it prints. */
export async function runIn(cwd: string, args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    isTty: false,
    env: {},
    cwd,
  };
  const code = await runCli(['node', 'mcp-gen', ...args], io);
  return { code, stdout, stderr };
}
