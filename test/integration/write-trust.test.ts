/**
 * Issue 20 through the built CLI, as a user who cloned an untrusted repository would run it: a planted
 * journal, output folders linked out of the project, and an immutable handler file under a rename.
 * Each must leave the project and the folder beside it unchanged and say why. The same attacks
 * in-process, with every variant of the journal: test/unit/write-trust.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyActions, pendingFolder, SimulatedCrash, type WriteAction } from '../../src/write/index.js';
import { repoRoot, runIn } from '../support/golden.js';
import { plantCheckout, plantIssueJournal, treeOf } from '../support/planted.js';

const bin = path.join(repoRoot, 'bin', 'mcp-gen.js');
const base = path.join(repoRoot, '.test-out', 'write-trust');
const minimal = readFileSync(path.join(repoRoot, 'test/fixtures/valid/minimal/manifest.yaml'), 'utf8');

function mcpGen(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const both = (c: { project: string; victim: string }) => ({ project: treeOf(c.project), victim: treeOf(c.victim) });

describe('mcp-gen generate on a checkout nobody trusts', () => {
  it('refuses the planted journal (lnk -> ../victim): exit 1, the fix, nothing changed inside or outside', () => {
    const checkout = plantCheckout(base, { 'mcp.yaml': minimal });
    plantIssueJournal(checkout.project);
    const before = both(checkout);
    const expected =
      'mcp-gen: error: ".mcp-gen-pending/" holds an interrupted run that mcp-gen did not stage here, so it is ' +
      'not finished: "journal.json" is unreadable or was written by another version of mcp-gen; nothing was ' +
      'changed\n  hint: remove .mcp-gen-pending/ after checking it (if a run of yours was interrupted, compare ' +
      'the project with version control first)\n';
    expect(mcpGen(checkout.project, ['generate', 'mcp.yaml'])).toEqual({ code: 1, stdout: '', stderr: expected });
    expect(mcpGen(checkout.project, ['generate', 'mcp.yaml', '--check'])).toEqual({
      code: 1,
      stdout: '',
      stderr: expected,
    });
    expect(both(checkout)).toEqual(before);
    expect(before.victim).toEqual({ 'precious.txt': 'precious\n' });
  });

  it('refuses a real interrupted run that was committed to git and cloned: exit 1, the clone unchanged', async () => {
    const checkout = plantCheckout(base, { 'mcp.yaml': minimal });
    expect((await runIn(checkout.project, ['generate'])).code).toBe(0);
    const actions: WriteAction[] = [{ kind: 'update', path: 'README.md', ownership: 'generated', contents: 'new\n' }];
    expect(() => applyActions(checkout.project, actions, { crashAt: (p) => p.phase === 'apply' })).toThrow(
      SimulatedCrash,
    );
    const git = (cwd: string, args: string[]) =>
      expect(spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd }).status).toBe(0);
    git(checkout.project, ['init', '-q']);
    // -f: the generated .gitignore lists the pending folder; a repository can carry it anyway.
    git(checkout.project, ['add', '-f', '.']);
    git(checkout.project, ['commit', '-q', '-m', 'planted']);
    const clone = path.join(base, 'clone');
    git(base, ['clone', '-q', checkout.project, clone]);
    const before = treeOf(clone);
    expect(readFileSync(path.join(clone, pendingFolder, 'journal.json'), 'utf8')).toContain('"README.md"');
    const result = mcpGen(clone, ['generate', 'mcp.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'not finished: it was not made in this folder by the run that wrote it (it was cloned, unpacked or copied here)',
    );
    expect(treeOf(clone)).toEqual(before);
  });

  for (const folder of ['src/generated', 'src/handlers/tools']) {
    it(`refuses to write through ${folder} linked to a folder outside: exit 1, nothing written`, () => {
      const checkout = plantCheckout(base, { 'mcp.yaml': minimal });
      mkdirSync(path.join(checkout.project, path.dirname(folder)), { recursive: true });
      symlinkSync(
        path.relative(path.join(checkout.project, path.dirname(folder)), checkout.victim),
        path.join(checkout.project, folder),
      );
      const before = both(checkout);
      const result = mcpGen(checkout.project, ['generate', 'mcp.yaml']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`: its folder "${folder}" is a symbolic link, and mcp-gen writes only through`);
      expect(both(checkout)).toEqual(before);
    });
  }
});

// chattr +i needs root and a file system with the flag (ext4, xfs, btrfs); elsewhere the case cannot be built.
const chattr = process.getuid?.() === 0 && spawnSync('chattr', ['--help']).error === undefined;

describe.skipIf(!chattr)('an immutable handler file under a rename', () => {
  it('is reported as permission denied, not ENOTDIR, and the project is left as it was', async () => {
    const checkout = plantCheckout(base, { 'mcp.yaml': minimal });
    const { project } = checkout;
    expect((await runIn(project, ['generate'])).code).toBe(0);
    writeFileSync(path.join(project, 'mcp.yaml'), minimal.replace('  ping:\n', '  pong:\n    renamedFrom: ping\n'));
    const handler = path.join(project, 'src/handlers/tools/ping.ts');
    const before = treeOf(project);
    const set = spawnSync('chattr', ['+i', handler]);
    try {
      expect(set.status).toBe(0);
      expect(mcpGen(project, ['generate', 'mcp.yaml'])).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'mcp-gen: error: could not write "src/handlers/tools/ping.ts" (EPERM: permission denied: the file or ' +
          'its folder is immutable, append-only or otherwise protected); nothing was changed\n',
      });
    } finally {
      spawnSync('chattr', ['-i', handler]);
    }
    expect(treeOf(project)).toEqual(before);
  });

  it('an up-to-date project in a folder nobody may write (immutable) still generates: nothing to lock', async () => {
    const { project } = plantCheckout(base, { 'mcp.yaml': minimal });
    expect((await runIn(project, ['generate'])).code).toBe(0);
    const set = spawnSync('chattr', ['+i', project]);
    try {
      expect(set.status).toBe(0);
      const result = mcpGen(project, ['generate', 'mcp.yaml']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^mcp\.yaml: 0 created, 0 updated, 0 renamed, 0 removed, \d+ unchanged\n$/);
    } finally {
      spawnSync('chattr', ['-i', project]);
    }
  });
});
