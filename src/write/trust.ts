import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lockName } from '../model/layout.js';
import { inside, PathEscapeError } from './actions.js';
import { WriteError } from './errors.js';
import { type Journal, ownerName, parseJournal, pendingFolder, pendingPath, slotHash, stampOf } from './journal.js';
import { linkedParent } from './paths.js';

/** First path segments (lower case: some file systems ignore case) that no run of mcp-gen ever writes. */
const neverWritten = new Set(['.git', pendingFolder, lockName, 'node_modules']);

/**
 * Recovery trusts only what mcp-gen itself staged: the journal `name` (`journal.json` or
 * `rollback.json`) of the pending folder of `root` is returned only when
 * - the pending folder and its `new/` and `old/` are real folders and the journal a plain file;
 * - its stamp is the identity of the folder's owner file (inode and change time), so the folder was
 *   made here by the run that wrote the journal: one that came from git, an archive or a copy (all
 *   of which create their files anew) is refused, whatever it holds;
 * - every path it names lies inside the project (by its text), is not under `.git/`, `node_modules/`
 *   or mcp-gen's own files, and has no folder between the root and itself that is a symbolic link
 *   (looked up on the disk, not in the text), so no rename or removal can leave the project;
 * - every staged file and backup still there is a plain file whose SHA-256 is the one recorded.
 * Anything else is refused before one file is touched, with the one fix there is.
 */
export function trustedJournal(root: string, name: string): Journal {
  const folder = inside(root, pendingFolder);
  const plain = (file: string, kind: 'folder' | 'file') => {
    const stat = lstatSync(file, { throwIfNoEntry: false });
    return stat === undefined || (kind === 'folder' ? stat.isDirectory() : stat.isFile());
  };
  if (
    !plain(folder, 'folder') ||
    !plain(path.join(folder, 'new'), 'folder') ||
    !plain(path.join(folder, 'old'), 'folder')
  )
    throw untrusted('its folders are not plain folders');
  const file = path.join(folder, name);
  if (!plain(file, 'file')) throw untrusted(`"${name}" is not a plain file`);
  const journal = parseJournal(readFileSync(file, 'utf8'));
  if (journal === null) throw untrusted(`"${name}" is unreadable or was written by another version of mcp-gen`);
  if (stampOf(path.join(folder, ownerName)) !== journal.stamp)
    throw untrusted('it was not made in this folder by the run that wrote it (it was cloned, unpacked or copied here)');
  const seen = new Map<string, boolean>();
  const paths = new Set<string>();
  for (const relative of [...journal.steps.map((s) => s.path), ...journal.createdDirs.map((d) => `${d}/.`)]) {
    checkPath(root, relative, seen);
    if (paths.has(relative)) throw untrusted(`it names "${relative}" twice`);
    paths.add(relative);
  }
  const slots = new Set<string>();
  for (const step of journal.steps)
    for (const [slot, hash] of [
      [step.staged, step.stagedHash],
      [step.backup, step.backupHash],
    ] as const) {
      if (slot === null) continue;
      if (slots.has(slot)) throw untrusted(`it names the staged file "${slot}" twice`);
      slots.add(slot);
      const staged = pendingPath(root, slot);
      const stat = lstatSync(staged, { throwIfNoEntry: false });
      // Gone: already moved into place (or back) by the interrupted run or an earlier recovery.
      if (stat === undefined) continue;
      // A backup may be a link (a link was replaced); a staged file is always a plain file.
      const kind = stat.isFile() || (stat.isSymbolicLink() && slot === step.backup);
      if (!kind || slotHash(staged) !== hash)
        throw untrusted(`its file "${slot}" for "${step.path}" does not hold what the run staged`);
    }
  return journal;
}

/** Refuses a journal path outside the project, in a place mcp-gen never writes, or under a linked folder. */
function checkPath(root: string, relative: string, seen: Map<string, boolean>): void {
  try {
    inside(root, relative);
  } catch (error) {
    if (error instanceof PathEscapeError) throw untrusted(`it names "${relative}", outside the project`);
    throw error;
  }
  const first = relative.split('/')[0]?.toLowerCase() ?? '';
  if (neverWritten.has(first)) throw untrusted(`it names "${relative}", where mcp-gen never writes`);
  const linked = linkedParent(root, relative, seen);
  if (linked !== null) throw untrusted(`it names "${relative}", whose folder "${linked}" is a symbolic link`);
}

/** The pending folder itself (not only its journal) is refused: it is a link, or a file. */
export function refuseLinkedPending(root: string): void {
  const stat = lstatSync(inside(root, pendingFolder), { throwIfNoEntry: false });
  if (stat !== undefined && !stat.isDirectory()) throw untrusted(`"${pendingFolder}" is not a plain folder`);
}

function untrusted(reason: string): WriteError {
  return new WriteError(
    `"${pendingFolder}/" holds an interrupted run that mcp-gen did not stage here, so it is not ` +
      `finished: ${reason}; nothing was changed\n  hint: remove ${pendingFolder}/ after checking it ` +
      '(if a run of yours was interrupted, compare the project with version control first)',
  );
}
