import { closeSync, mkdirSync, openSync, readFileSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { lockName } from '../model/layout.js';
import { causeOf, WriteError } from './errors.js';

export { lockName };

/** How long a run waits for another run's lock before it stops. */
export const lockWaitMs = 60_000;
const pollMs = 50;
/** A lock or takeover file with no readable process id this old was left by a run killed as it took it. */
const unreadableStaleMs = 5_000;

/** The lock one run holds on an output folder (`lockName`), from before it reads the project to its end. */
export interface ProjectLock {
  /** Removes the lock (when it is still this run's) and any output folder made only to hold it. */
  release(): void;
}

/**
 * Takes the lock of `root`, waiting (without blocking the event loop) while another run holds it, up
 * to `waitMs`. A lock whose process no longer runs is taken over. No lock library is installed, and
 * the rule needs only an exclusive create (`O_EXCL`), which every local file system has.
 */
export async function lockProject(root: string, waitMs = lockWaitMs): Promise<ProjectLock> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const taken = tryLock(root);
    if (typeof taken !== 'number') return taken;
    if (Date.now() >= deadline) throw held(taken, waitMs);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The same, for a synchronous caller (`writeProject` called without a lock): waits by sleeping the thread. */
export function lockProjectSync(root: string, waitMs = lockWaitMs): ProjectLock {
  const deadline = Date.now() + waitMs;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const taken = tryLock(root);
    if (typeof taken !== 'number') return taken;
    if (Date.now() >= deadline) throw held(taken, waitMs);
    Atomics.wait(cell, 0, 0, pollMs);
  }
}

/** Where this user may not create files, so no run of theirs can write either: an up-to-date run goes on. */
const unwritable = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Takes the lock, or returns the process id of the run holding it (0 when it cannot be read yet). In a
 * folder this user cannot write, there is nothing to lock: a run that needs to write fails at its first
 * write with the cause, and a run over an up-to-date project (a read-only checkout) succeeds as before.
 */
function tryLock(root: string): ProjectLock | number {
  try {
    return tryLockIn(root);
  } catch (error) {
    if (unwritable.has((error as NodeJS.ErrnoException).code ?? '')) return { release() {} };
    throw new WriteError(`could not take the lock "${lockName}" (${causeOf(error)}); nothing was changed`);
  }
}

function tryLockIn(root: string): ProjectLock | number {
  const created = mkdirSync(root, { recursive: true });
  const file = path.join(root, lockName);
  if (createWithPid(file)) return ours(root, file, created);
  const holder = readPid(file);
  if (holder === null) return 0;
  if (holder > 0 && alive(holder)) return holder;
  // The holder is gone (killed, or its file unreadable for long): take over, one taker at a time.
  const guard = `${file}.takeover`;
  if (!createWithPid(guard)) {
    if (readPid(guard) === -1) unlinkQuietly(guard);
    return holder;
  }
  try {
    if (readPid(file) === holder) unlinkQuietly(file);
  } finally {
    unlinkQuietly(guard);
  }
  return createWithPid(file) ? ours(root, file, created) : holder;
}

function ours(root: string, file: string, created: string | undefined): ProjectLock {
  return {
    release() {
      if (readPid(file) === process.pid) unlinkQuietly(file);
      // A folder created only to hold the lock of a run that wrote nothing goes with it.
      for (let dir = root; created !== undefined && dir.length >= created.length; dir = path.dirname(dir)) {
        try {
          rmdirSync(dir);
        } catch {
          return;
        }
      }
    },
  };
}

/** Creates `file` holding this process id; false when it exists. */
function createWithPid(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The process id in a lock file; null when it is gone or being written (read again later); -1 when
 * it has held no process id for `unreadableStaleMs` (its writer was killed between create and write).
 */
function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0) return pid;
    return Date.now() - statSync(file).mtimeMs > unreadableStaleMs ? -1 : null;
  } catch {
    return null;
  }
}

/** True when the process runs (this one included: a second run in the same process waits too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function held(pid: number, waitMs: number): WriteError {
  return new WriteError(
    `another mcp-gen run (process ${pid}) has been writing this project for ${Math.round(waitMs / 1000)} s; ` +
      `nothing was changed\n  hint: run again when it ends; if no such run exists, delete "${lockName}"`,
  );
}
