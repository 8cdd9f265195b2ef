import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../support/contract.js';
import { exampleDir } from '../support/examples.js';
import { materializeGolden, repoRoot } from '../support/golden.js';
import { type RunningPostgres, startPostgres } from '../support/postgres.js';

/** The directory examples/files serves in its contract tests: the files its manifest's examples read. */
function filesRoot(): string {
  const root = path.join(repoRoot, '.test-out', 'contract', 'files-root');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'hello.txt'), 'hello\n');
  writeFileSync(path.join(root, 'docs', 'guide.md'), '# Guide\n');
  return root;
}

// examples/library keeps its books in PostgreSQL: a throwaway cluster, started for it alone.
let postgres: RunningPostgres | null = null;
afterAll(() => postgres?.stop());
async function libraryDatabase(): Promise<string> {
  postgres ??= await startPostgres();
  return postgres.createDatabase('library');
}

// The contract tests every generated project ships must pass on the generated project as it is:
// stubs answer "not implemented" and the tests expect exactly that. Every committed example
// implements its handlers and keeps its data in memory, so it runs with the opt-in to tools that change
// data (MCP_GEN_TEST_WRITES=1) and each of its `examples` is a successful call (none skipped); the
// goldens run without it. contract-writes.test.ts checks what the opt-in changes.
describe('generated contract tests pass on fresh projects', () => {
  const projects = [
    ...readdirSync(path.join(repoRoot, 'examples')).map(
      (name) => [`examples/${name}`, () => exampleDir(name)] as const,
    ),
    ...readdirSync(path.join(repoRoot, 'test', 'fixtures', 'valid')).map(
      // A golden tree commits only computed files: completed with its template copies first.
      (name) =>
        [`valid/${name}`, () => materializeGolden(name, path.join(repoRoot, '.test-out', 'golden', name))] as const,
    ),
  ];
  for (const [label, source] of projects) {
    it(label, async () => {
      const example = label.startsWith('examples/');
      const result = runContract(source(), label.replace('/', '-'), {
        ...(example ? { MCP_GEN_TEST_WRITES: '1' } : {}),
        ...(label === 'examples/files' ? { FILES_ROOT: filesRoot() } : {}),
        ...(label === 'valid/config' ? { LIBRARY_DATABASE_URL: 'postgres://127.0.0.1/library-test' } : {}),
        ...(label === 'examples/library' ? { LIBRARY_DATABASE_URL: await libraryDatabase() } : {}),
      });
      const summary = /# pass (\d+)\n# fail (\d+)/.exec(result.stdout);
      expect(result.status, result.stdout.slice(-3000) + result.stderr.slice(-2000)).toBe(0);
      expect(Number(summary?.[1])).toBeGreaterThanOrEqual(7);
      expect(summary?.[2]).toBe('0');
      if (example) {
        const calls = result.stdout.match(/^ {4}ok \d+ - (tool|resource|prompt) \S+: example \d+$/gm) ?? [];
        expect(calls.length).toBeGreaterThanOrEqual(1);
        expect(result.stdout).not.toMatch(/# SKIP (not implemented|changes data)/);
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
    // One comment line, as TAP writes what a test file prints: no escaped `\#` (issue 33 item 12).
    expect(result.stdout).toMatch(/^# not implemented: 1 handler\(s\) still the generated stub: tool hello$/m);
    expect(result.stdout).toMatch(/^# skipped 1$/m);
  });
});
