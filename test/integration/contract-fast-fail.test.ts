import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runContract } from '../support/contract.js';
import { materializeGolden, repoRoot } from '../support/golden.js';

// A server that dies at start (here: a required variable is not set) fails the contract tests at once, each with
// the server's own message, instead of one 10 s timeout per test.

/** node --test's own total, from its `# duration_ms` line: the tests alone, without the compile before them. */
const durationMs = (stdout: string): number => Number(/^# duration_ms ([\d.]+)$/m.exec(stdout)?.[1] ?? Number.NaN);

/** The lines of node --test's report without their TAP indentation. */
const unindented = (stdout: string): string => stdout.replace(/^ +/gm, '');

describe('contract tests of a server that exits at start', () => {
  it('stdio: fail in under 15 s, each test with the server stderr (examples/library without its database)', () => {
    const result = runContract(path.join(repoRoot, 'examples', 'library'), 'fast-fail-library', {
      LIBRARY_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/library',
    });
    expect(result.status).toBe(1);
    expect(durationMs(result.stdout)).toBeLessThan(15_000);
    expect(result.stdout).toMatch(/^# pass 0$/m);
    expect(result.stdout).not.toContain('within 10000 ms');
    const reasons = unindented(result.stdout).match(
      /^the server exited \(code 1\); its stderr:\nlibrary: setup failed: connect ECONNREFUSED 127\.0\.0\.1:1$/gm,
    );
    const failed = Number(/^# fail (\d+)$/m.exec(result.stdout)?.[1]);
    expect(failed).toBeGreaterThanOrEqual(10);
    expect(reasons?.length).toBe(failed);
  }, 180_000);

  it('stdio and HTTP: the start-up hook fails in under 15 s with the server stderr (a required variable unset)', () => {
    const project = materializeGolden('config', path.join(repoRoot, '.test-out', 'contract-fast-fail', 'source'));
    const result = runContract(project, 'fast-fail-config');
    expect(result.status).toBe(1);
    expect(durationMs(result.stdout)).toBeLessThan(15_000);
    expect(result.stdout).toMatch(/^# pass 0$/m);
    expect(unindented(result.stdout)).toContain(
      'server exited with 1: library: the environment is missing or has invalid configuration (1); ' +
        'see .env.example:\nLIBRARY_DATABASE_URL is required and not set',
    );
  }, 180_000);
});
