/**
 * Issue 20, items 1 and 2: recovery trusts only a journal mcp-gen staged in this very folder, naming
 * paths inside the project through real folders; no write follows a linked folder out of the project.
 * Each attack is the one the attack pass found, and each must leave the project and the folder beside
 * it byte for byte as they were. The same attacks through the built CLI:
 * test/integration/write-trust.test.ts.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyActions,
  inspectWrites,
  pendingFolder,
  recoverWrites,
  SimulatedCrash,
  WriteError,
  type WriteAction,
} from '../../src/write/index.js';
import { repoRoot, runIn } from '../support/golden.js';
import { plantCheckout, plantCurrentJournal, plantIssueJournal, treeOf } from '../support/planted.js';

const base = path.join(repoRoot, '.test-out', 'write-trust-unit');
const fix =
  '\n  hint: remove .mcp-gen-pending/ after checking it (if a run of yours was interrupted, compare the project ' +
  'with version control first)';
const refused = (reason: string) =>
  new WriteError(
    `".mcp-gen-pending/" holds an interrupted run that mcp-gen did not stage here, so it is not finished: ${reason}; ` +
      `nothing was changed${fix}`,
  );

/** Runs `attempt` on the planted checkout and checks it changed nothing, in the project or beside it. */
function refusedUnchanged(project: string, victim: string, attempt: () => unknown, reason: string): void {
  const before = { project: treeOf(project), victim: treeOf(victim) };
  expect(attempt).toThrow(refused(reason));
  expect({ project: treeOf(project), victim: treeOf(victim) }).toEqual(before);
}

describe('a planted journal', () => {
  it('the issue journal (lnk -> ../victim, lnk/precious.txt removed, lnk/planted.sh written) is refused', async () => {
    const { project, victim } = plantCheckout(base);
    plantIssueJournal(project);
    const reason = '"journal.json" is unreadable or was written by another version of mcp-gen';
    refusedUnchanged(project, victim, () => recoverWrites(project), reason);
    refusedUnchanged(project, victim, () => inspectWrites(project), reason);
    // Through the CLI, in-process: exit 1, the error and its fix, nothing else printed.
    writeFileSync(
      path.join(project, 'mcp.yaml'),
      readFileSync(path.join(repoRoot, 'test/fixtures/valid/minimal/manifest.yaml')),
    );
    const before = { project: treeOf(project), victim: treeOf(victim) };
    for (const args of [['generate'], ['generate', '--check'], ['generate', '--dry-run']])
      expect(await runIn(project, args), args.join(' ')).toEqual({
        code: 1,
        stdout: '',
        stderr: `mcp-gen: error: ${refused(reason).message}\n`,
      });
    expect({ project: treeOf(project), victim: treeOf(victim) }).toEqual(before);
    expect(readFileSync(path.join(victim, 'precious.txt'), 'utf8')).toBe('precious\n');
    expect(existsSync(path.join(victim, 'planted.sh'))).toBe(false);
  });

  it('in the current format with a forged stamp and true hashes, its paths through the link are refused', () => {
    const { project, victim } = plantCheckout(base);
    plantCurrentJournal(project, [
      { path: 'lnk/precious.txt', contents: null },
      { path: 'lnk/planted.sh', contents: '#!/bin/sh\necho planted\n' },
    ]);
    const reason = 'it names "lnk/precious.txt", whose folder "lnk" is a symbolic link';
    refusedUnchanged(project, victim, () => recoverWrites(project), reason);
    // A rollback journal is checked the same way.
    rmSync(path.join(project, pendingFolder), { recursive: true });
    plantCurrentJournal(project, [{ path: 'lnk/planted.sh', contents: 'x\n' }], 'rollback.json');
    refusedUnchanged(
      project,
      victim,
      () => recoverWrites(project),
      'it names "lnk/planted.sh", whose folder "lnk" is a symbolic link',
    );
  });

  it('naming a path outside by its text, inside .git, twice, or with a staged file that differs, is refused', () => {
    const cases: [readonly { path: string; contents: string | null }[], string][] = [
      [[{ path: '../victim/precious.txt', contents: null }], 'it names "../victim/precious.txt", outside the project'],
      [
        [{ path: '.git/hooks/pre-commit', contents: 'x\n' }],
        'it names ".git/hooks/pre-commit", where mcp-gen never writes',
      ],
      [[{ path: '.GIT/config', contents: 'x\n' }], 'it names ".GIT/config", where mcp-gen never writes'],
      [
        [
          { path: 'a.txt', contents: null },
          { path: 'a.txt', contents: 'x\n' },
        ],
        'it names "a.txt" twice',
      ],
    ];
    for (const [steps, reason] of cases) {
      const { project, victim } = plantCheckout(base, { 'a.txt': 'a\n' });
      plantCurrentJournal(project, steps);
      refusedUnchanged(project, victim, () => recoverWrites(project), reason);
    }
    const { project, victim } = plantCheckout(base, { 'a.txt': 'a\n' });
    plantCurrentJournal(project, [{ path: 'a.txt', contents: 'staged\n' }]);
    writeFileSync(path.join(project, pendingFolder, 'new', '0'), 'swapped\n');
    refusedUnchanged(
      project,
      victim,
      () => recoverWrites(project),
      'its file "new/0" for "a.txt" does not hold what the run staged',
    );
  });

  it('a pending folder that is a link, or whose new/ is a link, is refused and not followed', () => {
    const { project, victim } = plantCheckout(base);
    symlinkSync('lnk', path.join(project, pendingFolder));
    refusedUnchanged(project, victim, () => recoverWrites(project), '".mcp-gen-pending" is not a plain folder');
    rmSync(path.join(project, pendingFolder));
    plantCurrentJournal(project, [{ path: 'a.txt', contents: 'x\n' }]);
    rmSync(path.join(project, pendingFolder, 'new'), { recursive: true });
    symlinkSync('../lnk', path.join(project, pendingFolder, 'new'));
    refusedUnchanged(project, victim, () => recoverWrites(project), 'its folders are not plain folders');
  });

  it('a real interrupted run is finished where it was made, and refused once copied (a clone, an archive)', () => {
    const { project } = plantCheckout(base, { 'a.txt': 'old\n' });
    const actions: WriteAction[] = [{ kind: 'update', path: 'a.txt', ownership: 'generated', contents: 'new\n' }];
    expect(() => applyActions(project, actions, { crashAt: (p) => p.phase === 'apply' })).toThrow(SimulatedCrash);
    const copy = path.join(base, 'copy');
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    const reason = 'it was not made in this folder by the run that wrote it (it was cloned, unpacked or copied here)';
    const before = treeOf(copy);
    expect(() => recoverWrites(copy)).toThrow(refused(reason));
    expect(treeOf(copy)).toEqual(before);
    expect(recoverWrites(project)?.run).toBe('committed');
    expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('new\n');
    expect(existsSync(path.join(project, pendingFolder))).toBe(false);
  });
});

describe('a linked output folder', () => {
  for (const folder of ['src/generated', 'src/handlers/tools']) {
    it(`${folder} -> a folder outside: an error naming it, nothing written anywhere`, async () => {
      const { project, victim } = plantCheckout(base);
      writeFileSync(
        path.join(project, 'mcp.yaml'),
        readFileSync(path.join(repoRoot, 'test/fixtures/valid/minimal/manifest.yaml')),
      );
      mkdirSync(path.join(project, path.dirname(folder)), { recursive: true });
      symlinkSync(path.relative(path.join(project, path.dirname(folder)), victim), path.join(project, folder));
      const before = { project: treeOf(project), victim: treeOf(victim) };
      const result = await runIn(project, ['generate']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^mcp-gen: error: could not write "${folder}/[^"]+": its folder "${folder}" is a symbolic link, and ` +
            'mcp-gen writes only through real folders inside the project; nothing was changed\\n' +
            `  hint: replace the link "${folder}" with a real folder \\(move what it points to into the project\\)\\n$`,
        ),
      );
      expect({ project: treeOf(project), victim: treeOf(victim) }).toEqual(before);
    });
  }

  it('a file that is a link is replaced by the new file, and what it pointed to is left alone', () => {
    const { project, victim } = plantCheckout(base);
    symlinkSync('../victim/precious.txt', path.join(project, 'out.txt'));
    applyActions(project, [{ kind: 'update', path: 'out.txt', ownership: 'generated', contents: 'ours\n' }]);
    expect(readFileSync(path.join(project, 'out.txt'), 'utf8')).toBe('ours\n');
    expect(treeOf(victim)).toEqual({ 'precious.txt': 'precious\n' });
  });
});
