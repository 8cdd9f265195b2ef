import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runContract } from '../support/contract.js';
import { repoRoot } from '../support/golden.js';
import { exampleDir } from '../support/examples.js';

// A server that dies at start fails the contract tests at once, each with the server's own message, instead of one
// 10 s timeout per test: over stdio with the exit of the stdio server, with HTTP declared with the HTTP server's.

/** node --test's own total, from its `# duration_ms` line: the tests alone, without the compile before them. */
const durationMs = (stdout: string): number => Number(/^# duration_ms ([\d.]+)$/m.exec(stdout)?.[1] ?? Number.NaN);

/** The lines of node --test's report without their TAP indentation. */
const unindented = (stdout: string): string => stdout.replace(/^ +/gm, '');

const manifest = `mcpGen: 1
server: { name: needs-db, version: 1.0.0 }
transports: { stdio: {} }
config:
  NEEDS_DB_URL: { description: The database., type: url }
tools:
  ping:
    description: Answer with pong.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
    examples:
      - input: {}
`;

describe('contract tests of a server that exits at start', () => {
  it('stdio: fail in under 15 s, each test with the server stderr (a required variable unset)', () => {
    const dir = path.join(repoRoot, '.test-out', 'contract-fast-fail');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcp.yaml'), manifest);
    const out = path.join(dir, 'project');
    const generate = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', path.join(dir, 'mcp.yaml'), '--out', out],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(generate.status, generate.stdout + generate.stderr).toBe(0);
    const result = runContract(out, 'fast-fail-stdio');
    expect(result.status).toBe(1);
    expect(durationMs(result.stdout)).toBeLessThan(15_000);
    expect(result.stdout).toMatch(/^# pass 0$/m);
    expect(result.stdout).not.toContain('within 10000 ms');
    const reason =
      'the server exited (code 1); its stderr:\n' +
      'needs-db: the environment is missing or has invalid configuration (1); see .env.example:\n' +
      'NEEDS_DB_URL is required and not set\n';
    const failed = Number(/^# fail (\d+)$/m.exec(result.stdout)?.[1]);
    expect(failed).toBeGreaterThanOrEqual(7);
    expect(unindented(result.stdout).split(reason).length - 1).toBe(failed);
  }, 180_000);

  it('stdio and HTTP: fail in under 15 s, each test with the server stderr (library, no database)', () => {
    const result = runContract(exampleDir('library'), 'fast-fail-library', {
      LIBRARY_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/library',
    });
    expect(result.status).toBe(1);
    expect(durationMs(result.stdout)).toBeLessThan(15_000);
    expect(result.stdout).toMatch(/^# pass 0$/m);
    expect(result.stdout).toMatch(/^# cancelled 0$/m);
    const failed = Number(/^# fail (\d+)$/m.exec(result.stdout)?.[1]);
    expect(failed).toBeGreaterThanOrEqual(10);
    const reasons = unindented(result.stdout).match(
      /^server exited with 1: library: setup failed: connect ECONNREFUSED 127\.0\.0\.1:1$/gm,
    );
    expect(reasons?.length).toBe(failed);
  }, 180_000);
});
