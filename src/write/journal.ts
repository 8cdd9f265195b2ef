import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { inside } from './actions.js';
import { syncDirectory } from './durable.js';
import { WriteError } from './errors.js';

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
 * contents, or is null when the path did not exist.
 */
export interface JournalStep {
  readonly path: string;
  readonly staged: string | null;
  readonly backup: string | null;
}

/** What a committed run changes: every path once, and the folders it had to create. */
export interface Journal {
  readonly version: 1;
  readonly steps: readonly JournalStep[];
  /** Project-relative folders that did not exist before the run, parents first. */
  readonly createdDirs: readonly string[];
  /**
   * Whether the run's files and folders are flushed to the disk as it goes: only when it replaces,
   * moves or removes a file the user owns (see `applyActions`). A journal without it is flushed.
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

/** Thrown by the test seam to stop a run where it stands, with no clean-up at all. */
export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

/** Passes one point of a run: a simulated crash or disk failure happens here when asked for. */
export function reach(faults: WriteFaults, point: WritePoint): void {
  if (faults.crashAt?.(point) === true) throw new SimulatedCrash(`crashed at ${point.phase} ${point.index}`);
  if (faults.failAt?.(point) === true)
    throw Object.assign(new Error(`injected failure at ${point.phase} ${point.index}`), { code: 'EIO' });
}

/** The absolute path of something inside the pending folder (`new/3`, `journal.json`). */
export function pendingPath(root: string, name: string): string {
  return path.join(inside(root, pendingFolder), ...name.split('/'));
}

/** Reads a journal written by `commitJournal`; refuses anything that does not look like one. */
export function readJournal(file: string): Journal {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    parsed = null;
  }
  const slot = (v: unknown) => v === null || (typeof v === 'string' && /^(new|old)\/\d+$/.test(v));
  const j = parsed as Partial<Journal> | null;
  const valid =
    j !== null &&
    typeof j === 'object' &&
    j.version === 1 &&
    Array.isArray(j.steps) &&
    Array.isArray(j.createdDirs) &&
    j.createdDirs.every((d) => typeof d === 'string') &&
    (j.flush === undefined || typeof j.flush === 'boolean') &&
    j.steps.every((s: Partial<JournalStep>) => typeof s?.path === 'string' && slot(s.staged) && slot(s.backup));
  if (!valid)
    throw new WriteError(
      `the journal "${pendingFolder}/${path.basename(file)}" of an interrupted run is ` +
        `unreadable; restore the project from version control, then delete "${pendingFolder}"`,
    );
  return { ...(j as Journal), flush: j.flush !== false };
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
      rmSync(target, { force: true });
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
      rmSync(target);
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
