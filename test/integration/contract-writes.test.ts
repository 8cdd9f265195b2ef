import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCompiled } from '../support/contract.js';
import { repoRoot } from '../support/paths.js';

// A project whose tools change a "database" (a file of rows; test/fixtures/contract-writes): `npm test`'s
// contract tests must leave it byte for byte unchanged unless the run opts in with MCP_GEN_TEST_WRITES=1,
// must count what they skipped, and must start the server with MCP_GEN_TEST_MODE=1. The destructive
// delete_row only accepts uuids (as a Postgres uuid column), so the opt-in run also shows that the handle
// the approval check mints carries the kind's `exampleId`.
const fixture = path.join(repoRoot, 'test', 'fixtures', 'contract-writes');
const dir = path.join(repoRoot, '.test-out', 'contract-writes');
const exampleRow = '6b1f0c52-8a9e-4d3b-b7f2-0e4c9a1d2f3e the example row';
const rows = `11111111-1111-4111-8111-111111111111 first\n${exampleRow}\n`;

function freshTable(name: string): string {
  const file = path.join(dir, `${name}.rows`);
  writeFileSync(file, rows);
  return file;
}

beforeAll(() => {
  rmSync(dir, { recursive: true, force: true });
  cpSync(fixture, dir, { recursive: true });
  const generate = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', 'mcp.yaml'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(generate.status, generate.stdout + generate.stderr).toBe(0);
});

describe('contract tests and data', () => {
  it('leave the table unchanged by default, and count what they skipped', () => {
    const table = freshTable('default');
    const result = runCompiled(dir, { ROWS_FILE: table });
    expect(result.status, result.stdout.slice(-3000) + result.stderr.slice(-2000)).toBe(0);
    expect(readFileSync(table, 'utf8')).toBe(rows);
    const skip = '# SKIP changes data; set MCP_GEN_TEST_WRITES=1 against a test backend to run it';
    expect(result.stdout).toContain(`ok 11 - approval of delete_row: an accepted call runs the handler ${skip}\n`);
    expect(result.stdout).toContain(`ok 1 - tool add_row: example 1 ${skip}\n`);
    expect(result.stdout).toMatch(/^ {4}ok 2 - tool list_rows: example 2$/m);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(
      '# skipped: 1 check(s) running tools that change data (approved delete_row); ' +
        'set MCP_GEN_TEST_WRITES=1 against a test backend to run them',
    );
    expect(lines).toContain(
      '# skipped: 1 example(s) of tools that change data (tool add_row); ' +
        'set MCP_GEN_TEST_WRITES=1 against a test backend to run them',
    );
    expect(result.stdout).toMatch(/^# skipped 2$/m);
    expect(result.stdout).toMatch(/^# fail 0$/m);
  });

  it('change it only with MCP_GEN_TEST_WRITES=1, against a server started in test mode', () => {
    const table = freshTable('writes');
    const result = runCompiled(dir, { ROWS_FILE: table, MCP_GEN_TEST_WRITES: '1' });
    expect(result.status, result.stdout.slice(-3000) + result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout).toMatch(/^# skipped 0$/m);
    expect(result.stdout).not.toContain('# skipped:');
    // add_row's example appended one row; the accepted approval deleted the row of the exampleId.
    const after = readFileSync(table, 'utf8').split('\n');
    expect(after[0]).toBe('11111111-1111-4111-8111-111111111111 first');
    expect(after[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12} added mode=1$/);
    expect(after.slice(2)).toEqual(['']);
  });
});
