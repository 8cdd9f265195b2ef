import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { materializeGolden, repoRoot } from '../support/golden.js';

const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');

/** Copies a generated project to .test-out, compiles it in place and runs its own `node --test`. */
function runContract(source: string, name: string, env: Readonly<Record<string, string>> = {}) {
  const dir = path.join(repoRoot, '.test-out', 'contract', name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(source, dir, {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}dist`) && !src.includes('node_modules'),
  });
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

/** The directory examples/files serves in its contract tests: the files its manifest's examples read. */
function filesRoot(): string {
  const root = path.join(repoRoot, '.test-out', 'contract', 'files-root');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'hello.txt'), 'hello\n');
  writeFileSync(path.join(root, 'docs', 'guide.md'), '# Guide\n');
  return root;
}

// The contract tests every generated project ships must pass on the generated project as it is:
// stubs answer "not implemented" and the tests expect exactly that. Every committed example
// implements its handlers, so each of its `examples` is a successful call (none skipped).
describe('generated contract tests pass on fresh projects', () => {
  const projects = [
    ...readdirSync(path.join(repoRoot, 'examples')).map(
      (name) => [`examples/${name}`, () => path.join(repoRoot, 'examples', name)] as const,
    ),
    ...readdirSync(path.join(repoRoot, 'test', 'fixtures', 'valid')).map(
      // A golden tree commits only computed files: completed with its template copies first.
      (name) =>
        [`valid/${name}`, () => materializeGolden(name, path.join(repoRoot, '.test-out', 'golden', name))] as const,
    ),
  ];
  for (const [label, source] of projects) {
    it(label, () => {
      const result = runContract(
        source(),
        label.replace('/', '-'),
        label === 'examples/files'
          ? { FILES_ROOT: filesRoot() }
          : label === 'valid/config'
            ? { LIBRARY_DATABASE_URL: 'postgres://127.0.0.1/library-test' }
            : {},
      );
      const summary = /# pass (\d+)\n# fail (\d+)/.exec(result.stdout);
      expect(result.status, result.stdout.slice(-3000) + result.stderr.slice(-2000)).toBe(0);
      expect(Number(summary?.[1])).toBeGreaterThanOrEqual(7);
      expect(summary?.[2]).toBe('0');
      if (label.startsWith('examples/')) {
        const calls = result.stdout.match(/^ {4}ok \d+ - (tool|resource|prompt) \S+: example \d+$/gm) ?? [];
        expect(calls.length).toBeGreaterThanOrEqual(1);
        expect(result.stdout).not.toMatch(/# SKIP not implemented/);
      }
    });
  }
});

// A fresh project (the manifest `init` starts from): its one handler is the stub, so its example is
// reported as skipped and counted as not implemented, never as passed.
describe('a fresh project counts its stubs as not implemented', () => {
  it('templates/init/mcp.yaml', () => {
    const out = path.join(repoRoot, '.test-out', 'contract-init-source');
    rmSync(out, { recursive: true, force: true });
    const generate = spawnSync(
      process.execPath,
      [
        path.join(repoRoot, 'bin', 'mcp-gen.js'),
        'generate',
        path.join(repoRoot, 'templates', 'init', 'mcp.yaml'),
        '--out',
        out,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(generate.status, generate.stdout + generate.stderr).toBe(0);
    const result = runContract(out, 'init');
    expect(result.status, result.stdout.slice(-3000) + result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout).toMatch(/^ {4}ok \d+ - tool hello: example 1 # SKIP not implemented$/m);
    expect(result.stdout).toContain('# not implemented: 1 handler(s) still the generated stub: tool hello');
    expect(result.stdout).toMatch(/^# skipped 1$/m);
  });
});
