/**
 * A checkout nobody trusts, as issue 20's attack pass built it: a project beside a `victim` folder,
 * a link `lnk -> ../victim` in the project, and a pending folder whose journal deletes
 * `lnk/precious.txt` and writes `lnk/planted.sh`.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listTree } from './golden.js';

export interface PlantedCheckout {
  readonly project: string;
  readonly victim: string;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Creates `base/project` (with `files`) and `base/victim/precious.txt`, and the link `project/lnk`. */
export function plantCheckout(base: string, files: Readonly<Record<string, string>> = {}): PlantedCheckout {
  rmSync(base, { recursive: true, force: true });
  const project = path.join(base, 'project');
  const victim = path.join(base, 'victim');
  mkdirSync(victim, { recursive: true });
  writeFileSync(path.join(victim, 'precious.txt'), 'precious\n');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), text);
  }
  mkdirSync(project, { recursive: true });
  symlinkSync('../victim', path.join(project, 'lnk'));
  return { project, victim };
}

/**
 * The issue's journal, in the format of the mcp-gen it attacked (version 1): `lnk/precious.txt`
 * removed (staged null), `lnk/planted.sh` written from `new/0`.
 */
export function plantIssueJournal(project: string): void {
  const pending = path.join(project, '.mcp-gen-pending');
  mkdirSync(path.join(pending, 'new'), { recursive: true });
  mkdirSync(path.join(pending, 'old'), { recursive: true });
  writeFileSync(path.join(pending, 'new', '0'), '#!/bin/sh\necho planted\n');
  writeFileSync(
    path.join(pending, 'journal.json'),
    JSON.stringify({
      version: 1,
      steps: [
        { path: 'lnk/precious.txt', staged: null, backup: null },
        { path: 'lnk/planted.sh', staged: 'new/0', backup: null },
      ],
      createdDirs: [],
    }),
  );
}

/**
 * A journal in today's format that passes every check but the one under test: its stamp is the
 * identity of the planted owner file (as if the attacker could forge it), and its hashes are right.
 * `steps` name the paths; each written path gets the next `new/<n>` with `contents`.
 */
export function plantCurrentJournal(
  project: string,
  steps: readonly { path: string; contents: string | null }[],
  name = 'journal.json',
): void {
  const pending = path.join(project, '.mcp-gen-pending');
  mkdirSync(path.join(pending, 'new'), { recursive: true });
  mkdirSync(path.join(pending, 'old'), { recursive: true });
  writeFileSync(path.join(pending, 'owner'), '999999\n');
  const owner = lstatSync(path.join(pending, 'owner'), { bigint: true });
  let n = 0;
  const journalSteps = steps.map((step) => {
    if (step.contents === null)
      return { path: step.path, staged: null, backup: null, stagedHash: null, backupHash: null };
    const staged = `new/${n++}`;
    writeFileSync(path.join(pending, ...staged.split('/')), step.contents);
    return { path: step.path, staged, backup: null, stagedHash: sha(step.contents), backupHash: null };
  });
  writeFileSync(
    path.join(pending, name),
    JSON.stringify({
      version: 2,
      stamp: `${owner.ino}:${owner.ctimeNs}`,
      steps: journalSteps,
      createdDirs: [],
      flush: false,
    }),
  );
}

/** Every file under `dir` (through links: a link to the victim shows its files) with its text. */
export function treeOf(dir: string): Record<string, string> {
  return Object.fromEntries(listTree(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
}
