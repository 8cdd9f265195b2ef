import { type Dirent, existsSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { inside } from './actions.js';
import { compareText } from '../util/compare.js';
import { causeOf, WriteError } from './errors.js';
import {
  journalName,
  ownerName,
  pendingFolder,
  pendingPath,
  removePending,
  rollBack,
  rollbackName,
  rollForward,
  SimulatedCrash,
  type WriteFaults,
} from './journal.js';
import { refuseLinkedPending, trustedJournal } from './trust.js';

/** What an interrupted run left behind in an output folder. */
export interface Interruption {
  /**
   * `committed`: killed after its commit point, so it is finished on the next
   * run; `rolling-back`: killed while undoing a failed write, so the undo is
   * finished; `staged`: killed before changing anything, only its temporary
   * files remain; null: no pending folder, only `strays`.
   */
  readonly run: 'committed' | 'rolling-back' | 'staged' | null;
  /** The number of paths the interrupted run changes (or undoes). */
  readonly changes: number;
  /**
   * Temporary and backup files (`*.mcp-gen-<pid>.tmp`, `.bak`)
   * that writers before the journal left next to their targets.
   */
  readonly strays: readonly string[];
}

const strayPattern = /\.mcp-gen-\d+\.(tmp|bak)$/;

/**
 * Looks for what an interrupted run left in `root`, changing nothing: for
 * `generate --check` and `--dry-run`. Null when there is nothing.
 */
export function inspectWrites(root: string): Interruption | null {
  const strays = findStrays(root);
  // lstat, not exists: a link in the folder's place is refused, not followed.
  if (lstatSync(inside(root, pendingFolder), { throwIfNoEntry: false }) === undefined)
    return strays.length === 0 ? null : { run: null, changes: 0, strays };
  refuseLinkedPending(root);
  // The journal is judged first: a planted folder is refused as such, even when its owner names a live process.
  for (const [name, run] of [
    [journalName, 'committed'],
    [rollbackName, 'rolling-back'],
  ] as const) {
    if (!existsSync(pendingPath(root, name))) continue;
    const changes = trustedJournal(root, name).steps.length;
    refuseLiveOwner(root);
    return { run, changes, strays };
  }
  refuseLiveOwner(root);
  return { run: 'staged', changes: 0, strays };
}

/**
 * Brings an output folder that an interrupted run left half-written back to
 * a consistent state, and removes every temporary file: a committed run is
 * finished, a run being undone is undone, a run that had not committed is
 * discarded (it had changed nothing). Returns what it found, null when the
 * folder was clean. Runs at the start of every writing run.
 */
export function recoverWrites(root: string, faults: WriteFaults = {}): Interruption | null {
  const found = inspectWrites(root);
  if (found === null) return null;
  try {
    if (found.run === 'committed') finishCommitted(root, faults);
    if (found.run === 'rolling-back') rollBack(root, trustedJournal(root, rollbackName), faults);
    if (found.run !== null) removePending(root, faults);
  } catch (error) {
    if (error instanceof SimulatedCrash || error instanceof WriteError) throw error;
    throw new WriteError(
      `could not repair the output folder after an interrupted run (${causeOf(error)}); ` +
        `"${pendingFolder}" was kept: fix the cause, then run generate again`,
    );
  }
  for (const stray of found.strays) {
    const file = inside(root, stray);
    const original = file.replace(strayPattern, '');
    // A set-aside original whose replacement never landed goes back; every other leftover goes.
    if (stray.endsWith('.bak') && !existsSync(original)) renameSync(file, original);
    else rmSync(file, { force: true });
  }
  return found;
}

/** Rolls a committed run forward; if the disk refuses (a file made read-only since), undoes it instead. */
function finishCommitted(root: string, faults: WriteFaults): void {
  const journal = trustedJournal(root, journalName);
  try {
    rollForward(root, journal, faults);
  } catch (error) {
    if (error instanceof SimulatedCrash) throw error;
    rollBack(root, journal, faults);
  }
}

/** The process id in the pending folder when that process still runs (another run is writing right now). */
function liveOwner(root: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(pendingPath(root, ownerName), 'utf8'), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

function refuseLiveOwner(root: string): void {
  const owner = liveOwner(root);
  if (owner !== null) throw busy(owner);
}

function busy(pid: number): WriteError {
  return new WriteError(
    `another mcp-gen run (process ${pid}) is writing this folder; wait ` +
      `for it to end (if no such run exists, delete "${pendingFolder}")`,
  );
}

/**
 * Project-relative paths of stray temporary files. Older writers left them
 * next to their targets, which are files at the root and under `src/` and
 * `test/`; only those are searched, so a project inside a large folder costs
 * nothing more.
 */
function findStrays(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        const searched =
          depth === 0 ? entry.name === 'src' || entry.name === 'test' : depth < 12 && entry.name !== 'node_modules';
        if (searched) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`, depth + 1);
      } else if (strayPattern.test(entry.name)) {
        found.push(`${prefix}${entry.name}`);
      }
    }
  };
  walk(root, '', 0);
  return found.sort(compareText);
}
