import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashTree } from './hash-tree.js';
import { copyExample, exampleDir, exampleNames, showcase } from './examples.js';
import { repoRoot } from './paths.js';

// Global setup of the integration and e2e tiers: those tests run mcp-gen as a user does, through
// bin/mcp-gen.js and so through dist/. A dist/ older than src/ would silently test old code, so
// dist/ is rebuilt before the first test unless the last build made here compiled exactly the
// current sources (a content hash) and nothing wrote dist/ since (`npm run build` of other
// sources). This also covers a single file run alone (`npx vitest run test/integration/cli.test.ts`).
// It runs every step of `npm run build`, the CLI bundle included, so the tests run what users run.

const dist = path.join(repoRoot, 'dist');
const stamp = path.join(dist, '.source-hash');
/** A file every build writes; its absence means dist/ is missing or was cleaned. */
const sentinel = path.join(dist, 'cli', 'index.js');

/** The build steps after the compile, as in package.json's `build` script. */
const buildScripts = ['scripts/build-validators.mjs', 'scripts/build-templates.mjs', 'scripts/bundle-cli.mjs'];

/** The hash of everything the build reads from this repository. */
function sourceHash(): string {
  const hash = createHash('sha256');
  hashTree(hash, path.join(repoRoot, 'src'));
  hashTree(hash, path.join(repoRoot, 'templates'));
  for (const file of ['tsconfig.json', 'tsconfig.build.json', ...buildScripts]) {
    hash.update(`${file}\0`).update(readFileSync(path.join(repoRoot, file)));
  }
  return hash.digest('hex');
}

/** The latest modification time of a file under `dir`, in ms. */
function newestIn(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const stat = statSync(full);
    newest = Math.max(newest, stat.isDirectory() ? newestIn(full) : stat.mtimeMs);
  }
  return newest;
}

/** True when dist/ was built here from exactly `wanted` and written by nothing else since. */
function isFresh(wanted: string): boolean {
  if (!existsSync(sentinel) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== wanted) return false;
  return newestIn(dist) <= statSync(stamp).mtimeMs;
}

/** Builds dist/ unless it is fresh, then generates the examples whose generated code is not committed. */
export function setup(): void {
  build();
  generateExamples();
}

function build(): void {
  const wanted = sourceHash();
  if (isFresh(wanted)) return;
  const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
  const result = spawnSync(tsc, ['-p', path.join(repoRoot, 'tsconfig.build.json')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (result.status !== 0)
    throw new Error(
      `tsc -p tsconfig.build.json failed (exit ${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
  for (const script of buildScripts) {
    const step = spawnSync(process.execPath, [path.join(repoRoot, script)], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (step.status !== 0)
      throw new Error(`${script} failed (exit ${step.status ?? step.signal}):\n${step.stdout}${step.stderr}`);
  }
  writeFileSync(stamp, wanted);
}

/** Generates every example but the showcase into `exampleDir(name)`, with the built CLI, as a user would. */
function generateExamples(): void {
  for (const name of exampleNames.filter((n) => n !== showcase)) {
    const dir = exampleDir(name);
    copyExample(name, dir);
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', 'mcp.yaml'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (result.status !== 0)
      throw new Error(`generate of examples/${name} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  }
}
