import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { inside, type WriteAction } from './actions.js';
import { keepCopy, syncDirectory, writeNewFile } from './durable.js';
import { causeOf, WriteError } from './errors.js';
import {
  journalName,
  ownerName,
  pendingFolder,
  pendingPath,
  reach,
  removePending,
  rollBack,
  rollForward,
  SimulatedCrash,
  slotHash,
  stampOf,
  type Journal,
  type JournalStep,
  type WriteOptions,
} from './journal.js';
import { refuseLinkedFolders } from './paths.js';
import { type FileText, partsOf } from '../util/file-text.js';
import { recoverWrites } from './recover.js';

/**
 * Applies actions as one transaction that survives being killed at any
 * instant. First, with the tree untouched, every new content is written to
 * the pending folder and every file about to be replaced or removed is kept
 * there too. Then the journal is written and renamed into place: that rename
 * is the commit point. Then the staged files are renamed over their targets
 * and the removed files deleted, and the pending folder is deleted.
 *
 * Killed before the commit point, the tree is still the old one and the next
 * run only deletes the pending folder; killed after it, the next run finishes
 * the renames (`recoverWrites`). A failure here (the disk refuses a write)
 * puts everything back before it is reported, so a failed run leaves the tree
 * as it was.
 *
 * A killed process loses nothing the kernel already has, so none of this
 * needs a flush to survive a kill. A power cut is another matter: a run that
 * replaces, moves or removes a file the user owns (a handler file it renames)
 * flushes every file and folder at each step, so the user's bytes outlive it.
 * Any other run only creates files or replaces and removes generated ones,
 * which the next run rebuilds from the manifest, so it flushes nothing: a
 * flush costs a few milliseconds per file on a quiet disk and far more on a
 * busy one, which made it a large share of a cold run.
 */
export function applyActions(root: string, actions: readonly WriteAction[], faults: WriteOptions = {}): void {
  recoverWrites(root, faults);
  const steps = planSteps(root, actions);
  const flush = replacesUserFiles(actions, steps);
  const firstCreated = mkdirSync(root, { recursive: true });
  const folder = inside(root, pendingFolder);
  let current = '';
  let journal: Journal;
  try {
    mkdirSync(folder);
  } catch (error) {
    // Created since recoverWrites looked: another run has just started; its folder is not ours to clean.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new WriteError(
        'another mcp-gen run is writing this folder; wait for it ' +
          `to end (if no such run exists, delete "${pendingFolder}")`,
      );
    throw failure(root, error, '');
  }
  try {
    // Not flushed: an owner lost in a power cut only makes the folder look abandoned, which it then is.
    writeNewFile(path.join(folder, ownerName), `${process.pid}\n`, false);
    const stamp = stampOf(path.join(folder, ownerName)) ?? '';
    mkdirSync(path.join(folder, 'new'));
    mkdirSync(path.join(folder, 'old'));
    const encode = encoder(steps);
    // A file replaced in place, or moved, keeps its permissions: the user's private (0600) file stays private.
    const modeSources = new Map(
      actions.flatMap((a) => (a.kind === 'update' ? [[a.path, a.path]] : a.kind === 'move' ? [[a.path, a.from]] : [])),
    );
    const staged = steps.map(({ step, contents }, index) => {
      current = step.path;
      // Each part encoded once, for the file and its hash: a large project's files are worth encoding only once.
      let stagedHash: string | null = null;
      if (contents !== undefined && step.staged !== null) {
        const hash = createHash('sha256');
        // A generator: each part's bytes live in the encoder's one buffer only until the next part is encoded.
        function* encoded(parts: readonly string[]) {
          for (const part of parts) {
            const bytes = encode(part);
            hash.update(bytes);
            yield bytes;
          }
        }
        writeNewFile(pendingPath(root, step.staged), encoded(partsOf(contents)), flush);
        stagedHash = hash.digest('hex');
        keepMode(root, modeSources.get(step.path), pendingPath(root, step.staged));
      }
      let backupHash: string | null = null;
      if (step.backup !== null) {
        const backup = pendingPath(root, step.backup);
        keepCopy(inside(root, step.path), backup, flush);
        backupHash = slotHash(backup);
      }
      reach(faults, { phase: 'stage', index });
      return { ...step, stagedHash, backupHash };
    });
    current = '';
    if (flush) for (const dir of ['new', 'old']) syncDirectory(path.join(folder, dir));
    journal = { version: 2, stamp, steps: staged, createdDirs: missingDirs(root, steps), flush };
    writeNewFile(path.join(folder, `${journalName}.tmp`), `${JSON.stringify(journal)}\n`, flush);
    reach(faults, { phase: 'commit', index: 0 });
    faults.beforeCommit?.();
    renameSync(path.join(folder, `${journalName}.tmp`), path.join(folder, journalName));
    if (flush) syncDirectory(folder);
    reach(faults, { phase: 'commit', index: 1 });
  } catch (error) {
    if (error instanceof SimulatedCrash) throw error;
    rmSync(folder, { recursive: true, force: true });
    removeCreatedRoot(root, firstCreated);
    throw failure(root, error, current);
  }
  try {
    rollForward(root, journal, faults);
  } catch (error) {
    if (error instanceof SimulatedCrash) throw error;
    try {
      rollBack(root, journal, faults);
      removePending(root, faults, flush);
      removeCreatedRoot(root, firstCreated);
    } catch (again) {
      if (again instanceof SimulatedCrash) throw again;
      throw new WriteError(
        `could not write (${causeOf(error)}) nor undo the changes (${causeOf(again)}); ` +
          `"${pendingFolder}" was kept so the next run can finish the undo`,
      );
    }
    throw failure(root, error, '');
  }
  removePending(root, faults, flush);
}

/**
 * Encodes each text as UTF-8 into one buffer, as large as the largest part needs; each result is valid until the
 * next call. A buffer per file would hold every file's bytes at once until the garbage collector runs (tens of
 * megabytes for a large project, at the moment the run's memory peaks).
 */
function encoder(steps: readonly PlannedStep[]): (text: string) => Buffer {
  let size = 0;
  for (const { contents } of steps)
    if (contents !== undefined) for (const part of partsOf(contents)) size = Math.max(size, Buffer.byteLength(part));
  const buffer = Buffer.allocUnsafe(size);
  return (text) => buffer.subarray(0, buffer.write(text, 'utf8'));
}

interface PlannedStep {
  readonly step: Pick<JournalStep, 'path' | 'staged' | 'backup'>;
  readonly contents: FileText | undefined;
}

/**
 * True when a step replaces or removes a file that exists and is not generated: a handler file or other
 * user-owned file (a moved file's old path holds the user's file too). Only such a run is flushed.
 */
function replacesUserFiles(actions: readonly WriteAction[], steps: readonly PlannedStep[]): boolean {
  const generated = new Set(
    actions.filter((a) => a.ownership === 'generated' || a.ownership === 'stale').map((a) => a.path),
  );
  return steps.some(({ step }) => step.backup !== null && !generated.has(step.path));
}

/**
 * One step per path: every path written, then every path removed that is not
 * also written (a rename chain `a -> b, b -> c` writes `b`, it must not remove
 * it), so the steps are independent and can be replayed in any state.
 */
function planSteps(root: string, actions: readonly WriteAction[]): PlannedStep[] {
  const written = new Map<string, FileText>();
  for (const a of actions)
    if (a.contents !== undefined && (a.kind === 'create' || a.kind === 'update' || a.kind === 'move'))
      written.set(a.path, a.contents);
  const removed = new Set<string>();
  for (const a of actions) {
    const gone = a.kind === 'remove' ? a.path : a.kind === 'move' ? a.from : undefined;
    if (gone !== undefined && !written.has(gone)) removed.add(gone);
  }
  let backups = 0;
  const backupOf = (relative: string): string | null => {
    const file = inside(root, relative);
    if (!existsOrLink(file)) return null;
    if (!statSync(file).isFile())
      throw new WriteError(`could not write "${relative}" (not a regular file); nothing was changed`);
    return `old/${backups++}`;
  };
  // A folder the disk will refuse is found now, before the commit point, when failing costs nothing.
  const writable = (relative: string) => {
    let dir = path.dirname(inside(root, relative));
    while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    try {
      accessSync(dir, constants.W_OK | constants.X_OK);
    } catch {
      throw new WriteError(`could not write "${relative}" (EACCES: permission denied); nothing was changed`);
    }
  };
  const steps: PlannedStep[] = [];
  let staged = 0;
  refuseLinkedFolders(root, [...written.keys(), ...removed]);
  for (const relative of [...written.keys(), ...removed]) writable(relative);
  for (const [relative, contents] of written)
    steps.push({ step: { path: relative, staged: `new/${staged++}`, backup: backupOf(relative) }, contents });
  for (const relative of removed)
    steps.push({ step: { path: relative, staged: null, backup: backupOf(relative) }, contents: undefined });
  return steps;
}

/** Gives `staged` the permissions of the plain file at `source` (a link's target is never looked at). */
function keepMode(root: string, source: string | undefined, staged: string): void {
  if (source === undefined) return;
  const stat = lstatSync(inside(root, source), { throwIfNoEntry: false });
  if (stat?.isFile() === true) chmodSync(staged, stat.mode & 0o777);
}

function existsOrLink(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Folders the new files need that do not exist yet, parents first, relative to the root. */
function missingDirs(root: string, steps: readonly PlannedStep[]): string[] {
  const missing = new Set<string>();
  for (const { step } of steps) {
    if (step.staged === null) continue;
    const parts = step.path.split('/').slice(0, -1);
    for (let n = 1; n <= parts.length; n++) {
      const dir = parts.slice(0, n).join('/');
      if (!missing.has(dir) && !existsSync(inside(root, dir))) missing.add(dir);
    }
  }
  return [...missing];
}

/** Removes the folders `mkdirSync(root, { recursive: true })` created, when still empty. */
function removeCreatedRoot(root: string, firstCreated: string | undefined): void {
  if (firstCreated === undefined) return;
  for (let dir = root; dir.length >= firstCreated.length; dir = path.dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

function failure(root: string, error: unknown, current: string): WriteError {
  if (error instanceof WriteError) return error;
  const reason = error as NodeJS.ErrnoException & { dest?: string };
  // A rename names the staged file first and the target second; the target is what the user knows.
  const named = reason.dest ?? reason.path;
  const shown =
    current !== '' ? current : named === undefined ? '' : path.relative(root, named).split(path.sep).join('/');
  const where = shown === '' || shown.startsWith(pendingFolder) ? '' : ` "${shown}"`;
  return new WriteError(`could not write${where} (${causeOf(error)}); nothing was changed`);
}
