import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import path from 'node:path';
import { inside, type KnownProjectFile } from './actions.js';
import { syncDirectory } from './durable.js';
import { hashReads, hashText } from '../util/hash.js';

import { pendingFolder } from '../model/layout.js';

export { pendingFolder };

/** Inside the pending folder: the commit point. Once it exists, the run is finished, never undone. */
export const journalName = 'journal.json';
/** Inside the pending folder: replaces the journal while a failed run is being undone. */
export const rollbackName = 'rollback.json';
/** Inside the pending folder: the process id of the run that owns it. */
export const ownerName = 'owner';

/**
 * One path the run changes. `staged` (inside the pending folder) holds its new
 * contents, or is null when the path is removed; `backup` holds its old
 * contents, or is null when the path did not exist. Each slot's SHA-256 is
 * recorded, so recovery moves only the bytes this run staged.
 */
export interface JournalStep {
  readonly path: string;
  readonly staged: string | null;
  readonly backup: string | null;
  readonly stagedHash: string | null;
  readonly backupHash: string | null;
}

/** What a committed run changes: every path once, and the folders it had to create. */
export interface Journal {
  readonly version: 2;
  /**
   * The inode and change time (ns) of the pending folder's owner file, which the run created and
   * never changes: a folder cloned, unpacked or copied into place has another, so its journal is
   * refused (see trust.ts). Nobody can set a change time, nor know the one a checkout will give.
   */
  readonly stamp: string;
  readonly steps: readonly JournalStep[];
  /** Project-relative folders that did not exist before the run, parents first. */
  readonly createdDirs: readonly string[];
  /**
   * Whether the run's files and folders are flushed to the disk as it goes: only when it replaces,
   * moves or removes a file the user owns (see `applyActions`).
   */
  readonly flush: boolean;
}

/** A place in a run where a crash or a disk failure can be simulated. */
export interface WritePoint {
  readonly phase: 'stage' | 'commit' | 'apply' | 'sync' | 'finish' | 'rollback';
  readonly index: number;
}

/** Test seam: where to stop dead (as SIGKILL would) or fail (as the disk would). */
export interface WriteFaults {
  readonly crashAt?: (point: WritePoint) => boolean;
  readonly failAt?: (point: WritePoint) => boolean;
}

/** How a caller runs the write stage: the test seam, and what the caller already holds or checks. */
export interface WriteOptions extends WriteFaults {
  /** The caller holds the project lock (`lockProject`); otherwise `writeProject` takes it. */
  readonly locked?: boolean;
  /**
   * Called with the project lock held, every file staged and the tree untouched, just before the
   * commit point: throwing stops the run with nothing changed (`generate` refuses a stale plan here).
   */
  readonly beforeCommit?: () => void;
  /** Generated files whose text is known without reading them (the warm cache's, src/cache/warm.ts). */
  readonly known?: KnownProjectFile;
}

/** Thrown by the test seam to stop a run where it stands, with no clean-up at all. */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

/**
 * Test seam for test/integration/kill.test.ts: milliseconds to sleep at every point of the stage,
 * commit and apply phases, so that a kill aimed at the write phase lands there on any machine. Unset, zero.
 */
const writeDelayMs = Number.parseInt(process.env.MCP_GEN_WRITE_DELAY_MS ?? '', 10) || 0;
const delayed = new Set<WritePoint['phase']>(['stage', 'commit', 'apply']);

/** Passes one point of a run: a simulated crash or disk failure happens here when asked for. */
export function reach(faults: WriteFaults, point: WritePoint): void {
  if (writeDelayMs > 0 && delayed.has(point.phase))
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, writeDelayMs);
  if (faults.crashAt?.(point) === true) throw new SimulatedCrash(`crashed at ${point.phase} ${point.index}`);
  if (faults.failAt?.(point) === true)
    throw Object.assign(new Error(`injected failure at ${point.phase} ${point.index}`), { code: 'EIO' });
}

/** The absolute path of something inside the pending folder (`new/3`, `journal.json`). */
export function pendingPath(root: string, name: string): string {
  return path.join(inside(root, pendingFolder), ...name.split('/'));
}

/** Reads a journal written by `applyActions`; null for anything that does not look like one. */
export function parseJournal(text: string): Journal | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const slot = (v: unknown, kind: RegExp) => v === null || (typeof v === 'string' && kind.test(v));
  const hash = (v: unknown, s: unknown) =>
    s === null ? v === null : typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
  const j = parsed as Partial<Journal> | null;
  const valid =
    j !== null &&
    typeof j === 'object' &&
    j.version === 2 &&
    typeof j.stamp === 'string' &&
    Array.isArray(j.steps) &&
    Array.isArray(j.createdDirs) &&
    j.createdDirs.every((d) => typeof d === 'string') &&
    typeof j.flush === 'boolean' &&
    j.steps.every(
      (s: Partial<JournalStep>) =>
        typeof s?.path === 'string' &&
        slot(s.staged, /^new\/\d+$/) &&
        slot(s.backup, /^old\/\d+$/) &&
        hash(s.stagedHash, s.staged) &&
        hash(s.backupHash, s.backup),
    );
  return valid ? (j as Journal) : null;
}

/**
 * The SHA-256 a journal records for a staged file or backup. A backup of a link is the link itself
 * (a hard link to it), so its hash is of the link's text: its target is never read.
 */
export function slotHash(file: string): string {
  return lstatSync(file).isSymbolicLink() ? hashText(`link:${readlinkSync(file)}`) : hashFileBytes(file);
}

/** `hashText` of a file's bytes, read a chunk at a time. */
export function hashFileBytes(file: string): string {
  const fd = openSync(file, 'r');
  try {
    return hashReads((into) => readSync(fd, into));
  } finally {
    closeSync(fd);
  }
}

/** The identity of the owner file, as `Journal.stamp` records it; null when it is not a plain file. */
export function stampOf(file: string): string | null {
  const stat = lstatSync(file, { bigint: true, throwIfNoEntry: false });
  return stat?.isFile() === true ? `${stat.ino}:${stat.ctimeNs}` : null;
}

/**
 * Brings every path of the journal to its new state. Safe to repeat after a
 * crash at any point: a staged file that is gone has already been renamed
 * into place, and removing a missing file does nothing.
 */
export function rollForward(root: string, journal: Journal, faults: WriteFaults): void {
  journal.steps.forEach((step, index) => {
    reach(faults, { phase: 'apply', index });
    const target = inside(root, step.path);
    if (step.staged === null) {
      removeFile(target);
      return;
    }
    const staged = pendingPath(root, step.staged);
    if (!existsSync(staged)) return;
    mkdirSync(path.dirname(target), { recursive: true });
    renameSync(staged, target);
  });
  reach(faults, { phase: 'sync', index: 0 });
  if (journal.flush) syncParents(root, journal);
}

/**
 * Brings every path of the journal back to its old state, after a failure
 * part-way through `rollForward`. The journal is first renamed so that a crash
 * while undoing is finished by undoing, not by rolling forward again. Only
 * steps that happened are undone, so a folder the disk refuses to write in
 * stops nothing else. Safe to repeat: a backup that is gone has already been
 * put back, and a new file is removed only when its staged copy is gone (it
 * was renamed into place).
 */
export function rollBack(root: string, journal: Journal, faults: WriteFaults): void {
  const journalFile = pendingPath(root, journalName);
  if (existsSync(journalFile)) {
    renameSync(journalFile, pendingPath(root, rollbackName));
    if (journal.flush) syncDirectory(inside(root, pendingFolder));
  }
  [...journal.steps].reverse().forEach((step, index) => {
    reach(faults, { phase: 'rollback', index });
    const target = inside(root, step.path);
    // A step that never happened is left alone: its staged file is still there, or its removed path still exists.
    const applied = step.staged === null ? !existsSync(target) : !existsSync(pendingPath(root, step.staged));
    if (!applied) return;
    if (step.backup !== null) {
      const backup = pendingPath(root, step.backup);
      if (!existsSync(backup)) return;
      mkdirSync(path.dirname(target), { recursive: true });
      renameSync(backup, target);
    } else if (isFile(target)) {
      removeFile(target);
    }
  });
  for (const dir of [...journal.createdDirs].reverse()) {
    try {
      rmdirSync(inside(root, dir));
    } catch {
      // not empty (something else lives there now) or already gone: leave it
    }
  }
  if (journal.flush) syncParents(root, journal);
}

/** Ends a run: the journal goes first, so a crash while deleting the rest is only leftovers, never a half run. */
export function removePending(root: string, faults: WriteFaults, flush = true): void {
  const folder = inside(root, pendingFolder);
  for (const name of [journalName, rollbackName]) rmSync(path.join(folder, name), { force: true });
  if (flush) syncDirectory(folder);
  reach(faults, { phase: 'finish', index: 0 });
  rmSync(folder, { recursive: true, force: true });
}

/**
 * Deletes a file; a missing one is already deleted. Not `rmSync`: refused with EPERM (an immutable
 * file), it retries as a folder and reports ENOTDIR, which hides the cause.
 */
function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Flushes the folders whose entries changed, so the renames outlive a power cut before the journal is deleted. */
function syncParents(root: string, journal: Journal): void {
  const dirs = new Set(journal.steps.map((s) => path.dirname(inside(root, s.path))));
  for (const dir of dirs) if (existsSync(dir)) syncDirectory(dir);
}
