import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, repoRoot, runIn } from '../support/golden.js';

const lintDir = path.join(repoRoot, 'test', 'fixtures', 'lint');
const breakingDir = path.join(repoRoot, 'test', 'fixtures', 'breaking');
const transcript = (r: { code: number; stdout: string; stderr: string }) =>
  `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;

describe('mcp-gen check: lint rules and the gate (test/fixtures/lint)', () => {
  for (const name of readdirSync(lintDir).sort()) {
    it(name, async () => {
      const result = await runIn(path.join(lintDir, name), ['check', 'manifest.yaml']);
      expectGolden(path.join(lintDir, name, 'expected.txt'), transcript(result));
      // A gate FAIL, an error, or a hard reject is exit 1; warnings and notes alone are not.
      const failed = /^gate FAIL/m.test(result.stdout) || /: error \[/.test(result.stderr);
      expect(result.code).toBe(failed ? 1 : 0);
    });
  }

  it('the reference example passes the gate with no FAIL', async () => {
    const result = await runIn(repoRoot, ['check', 'examples/notes/mcp.yaml']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('gate PASS for examples/notes/mcp.yaml (12 pass, 0 warn, 0 fail)');
  });

  it('--strict fails on warnings but not on notes', async () => {
    expect((await runIn(path.join(lintDir, 'lint-notes'), ['check', 'manifest.yaml', '--strict'])).code).toBe(0);
    expect((await runIn(path.join(lintDir, 'lint-no-instructions'), ['check', 'manifest.yaml', '--strict'])).code).toBe(
      1,
    );
  });

  it('--format json gives the same verdict as data', async () => {
    const result = await runIn(path.join(lintDir, 'gate-approval-none'), [
      'check',
      'manifest.yaml',
      '--format',
      'json',
    ]);
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as {
      ok: boolean;
      gate: { id: string; status: string }[];
      diagnostics: { code: string }[];
    };
    expect(parsed.ok).toBe(false);
    expect(parsed.gate.filter((g) => g.status !== 'PASS')).toEqual([
      {
        id: 'G7',
        title: 'Approval rules',
        status: 'FAIL',
        reason: 'tool "delete_note" is destructive (destructiveHint: true) but runs without approval',
      },
    ]);
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(['approval-none-destructive']);
  });
});

describe('mcp-gen check --baseline: breaking changes (test/fixtures/breaking)', () => {
  const cases = readdirSync(breakingDir).sort();
  it('has at least 12 before/after pairs', () => expect(cases.length).toBeGreaterThanOrEqual(12));
  for (const name of cases) {
    it(name, async () => {
      const result = await runIn(path.join(breakingDir, name), ['check', 'after.yaml', '--baseline', 'before.yaml']);
      expectGolden(path.join(breakingDir, name, 'expected.txt'), transcript(result));
      expect(result.code).toBe(name === 'compatible-changes' ? 0 : 1);
    });
  }

  it('reads the baseline from a git revision', async () => {
    const dir = path.join(repoRoot, '.test-out', 'baseline-git');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.join(dir, 'server'), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], {
        cwd: dir,
        stdio: 'pipe',
      });
    git('init', '-q');
    cpSync(path.join(breakingDir, 'tool-removed', 'before.yaml'), path.join(dir, 'server', 'mcp.yaml'));
    git('add', '.');
    git('commit', '-qm', 'baseline');
    cpSync(path.join(breakingDir, 'tool-removed', 'after.yaml'), path.join(dir, 'server', 'mcp.yaml'));
    const result = await runIn(dir, ['check', 'server/mcp.yaml', '--baseline', 'HEAD']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      'server/mcp.yaml:4:1: error [breaking-tool-removed] tool "delete_note" was removed',
    );
    writeFileSync(path.join(dir, 'server', 'mcp.yaml'), '');
    const unknown = await runIn(dir, [
      'check',
      path.join(breakingDir, 'compatible-changes', 'after.yaml'),
      '--baseline',
      'no-such-ref',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.split('\n').find((line) => line.startsWith('no-such-ref:'))).toBe(
      'no-such-ref:1:1: error [baseline-unreadable] baseline "no-such-ref" is ' +
        'neither a readable manifest file nor a git revision holding "after.yaml"',
    );
  });
});
