import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli, type CliIo } from '../../src/cli/index.js';
import { finalText } from '../../src/emit/shared/ts-text.js';
import { repoRoot } from './paths.js';

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

export { repoRoot } from './paths.js';

/** The folder of the golden cases: `<name>/manifest.yaml`, `<name>/expected/**` and `<name>/copies.txt`. */
export const goldenDir = path.join(repoRoot, 'test', 'fixtures', 'valid');

/**
 * The files of a golden case that are package templates under the banner (the runtime, the contract-test runner),
 * from its `copies.txt`: one `<path> <template>` line each. Only computed output is committed under `expected/`;
 * these are compared with their template (test/unit/golden.test.ts).
 */
export function goldenCopies(name: string): [path: string, template: string][] {
  const file = path.join(goldenDir, name, 'copies.txt');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(' ') as [string, string]);
}

/** A template copy as `generate` writes it: `banner` (the case's two banner lines) above the template's text. */
export function templateCopy(banner: string, template: string): string {
  return finalText(`${banner}\n${readFileSync(path.join(repoRoot, 'templates', ...template.split('/')), 'utf8')}`);
}

/** The banner of a golden case, taken from its computed server module. */
export function goldenBanner(name: string): string {
  const server = readFileSync(path.join(goldenDir, name, 'expected', 'src', 'generated', 'server.gen.ts'), 'utf8');
  const lines = server.split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  return `${lines.slice(0, end).join('\n')}\n`;
}

/**
 * The whole output tree of a golden case, as `generate` writes it, in `dir` (each test its own: test files run in
 * parallel): the committed files plus every template copy. For tests that compile or run a golden project.
 */
export function materializeGolden(name: string, dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(goldenDir, name, 'expected'), dir, { recursive: true });
  const banner = goldenBanner(name);
  for (const [file, template] of goldenCopies(name)) {
    const target = path.join(dir, ...file.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, templateCopy(banner, template));
  }
  return dir;
}

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

/** Runs `mcp-gen ...args` in-process in `cwd`, capturing everything it prints; `overrides` change its terminal. */
export async function runIn(cwd: string, args: string[], overrides: Partial<CliIo> = {}) {
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
    ...overrides,
  };
  const code = await runCli(['node', 'mcp-gen', ...args], io);
  return { code, stdout, stderr };
}
