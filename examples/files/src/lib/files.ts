/**
 * What the tools and resources do with a path: each operation walks to it (walk.ts), so every component is
 * opened relative to the directory before it and no link is followed by the kernel, then acts on the
 * descriptor it holds.
 *
 * Files are opened with O_NOFOLLOW and O_NONBLOCK, so a FIFO or device planted in the scope cannot block the
 * open, and must then be a regular file with a single link (fstat): a hard link in the scope may name a file
 * outside it, which no path check can see.
 */
import { constants, type Dirent, promises as fs, type Stats } from 'node:fs';
import { code, displayOf, maxReadBytes, NotFoundError, ScopeError, segmentsOf } from './scope.js';
import { directoryFlags, inside, Walk, withWalk } from './walk.js';

const quote = JSON.stringify;

/** A file whose last component keeps changing between two opens is refused after this many tries. */
const maxAttempts = 50;

/** Runs `body` on a walk to the client path `requested`. */
function walkTo<T>(requested: string, body: (walk: Walk) => Promise<T>): Promise<T> {
  const segments = segmentsOf(requested);
  return withWalk(segments, displayOf(segments), body);
}

function notRegular(display: string): ScopeError {
  return new ScopeError(`${quote(display)} is not a regular file.`);
}

/** A file with more than one name may be the same file as one outside the scope: refused. */
function refuseHardLink(stats: Stats, display: string): void {
  if (stats.nlink > 1) {
    throw new ScopeError(`${quote(display)} has ${stats.nlink} hard links, so it may be a file outside the scope directory; refused.`);
  }
}

/**
 * Opens `at` (a path through /proc/self/fd) without following a final link and without blocking, and
 * requires a regular, single-linked file. ELOOP, ENOENT and EEXIST are left to the caller, which knows
 * whether to follow a link, retry or refuse.
 */
async function openRegular(at: string, display: string, flags: number, mode?: number): Promise<fs.FileHandle> {
  let file: fs.FileHandle;
  try {
    file = await fs.open(at, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  } catch (error) {
    const reason = code(error);
    if (reason === 'ENXIO' || reason === 'EISDIR') throw notRegular(display); // ENXIO: a FIFO without a reader
    throw error;
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw notRegular(display);
    refuseHardLink(stats, display);
    return file;
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** The status of a path, links followed inside the scope. */
export async function statPath(requested: string): Promise<{ display: string; stats: Stats }> {
  return walkTo(requested, async (walk) => ({ display: walk.display, stats: await walk.stat() }));
}

/** Reads a regular file (at most maxReadBytes): no link leading outside, no FIFO, device or hard link. */
export async function readPath(requested: string): Promise<Buffer> {
  return walkTo(requested, async (walk) => {
    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      if (walk.name === null) throw notRegular(walk.display);
      let file: fs.FileHandle;
      try {
        file = await openRegular(inside(walk.dir, walk.name), walk.display, constants.O_RDONLY);
      } catch (error) {
        if (code(error) === 'ELOOP') {
          await walk.follow();
          continue;
        }
        if (code(error) === 'ENOENT') throw new NotFoundError(`${quote(walk.display)} does not exist.`);
        throw error;
      }
      try {
        const stats = await file.stat();
        if (stats.size > maxReadBytes) {
          throw new ScopeError(`${quote(walk.display)} is ${stats.size} bytes; at most ${maxReadBytes} can be read.`);
        }
        return await file.readFile();
      } finally {
        await file.close();
      }
    }
    throw new ScopeError(`${quote(walk.display)} kept changing while it was opened; refused.`);
  });
}

/** One entry of a directory listing. */
export interface Entry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Bytes, for regular files only. */
  readonly size?: number;
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The entries of an open directory, sorted by name (readdir of /proc/self/fd/<fd> reads that directory). */
export async function entriesOf(dir: fs.FileHandle): Promise<Dirent[]> {
  return (await fs.readdir(inside(dir), { withFileTypes: true })).sort(byName);
}

/** The size of regular file `name` in `dir`, or null when it is gone or is no longer a regular file. */
export async function sizeIn(dir: fs.FileHandle, name: string): Promise<number | null> {
  return fs.lstat(inside(dir, name)).then(
    (stats) => (stats.isFile() ? stats.size : null),
    () => null,
  );
}

/** Opens directory `name` in `dir` without following it; null when it is gone or is no longer a directory. */
export async function openChild(dir: fs.FileHandle, name: string): Promise<fs.FileHandle | null> {
  try {
    return await fs.open(inside(dir, name), directoryFlags);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(code(error) ?? '')) return null;
    throw error;
  }
}

/** Walks to a directory (links followed inside the scope) and runs `body` on it. */
export async function inDirectory<T>(requested: string, body: (dir: fs.FileHandle, walk: Walk) => Promise<T>): Promise<T> {
  return walkTo(requested, async (walk) => {
    await walk.enter();
    return body(walk.dir, walk);
  });
}

/** The entries of a directory, sorted by name; symbolic links are reported, not followed. */
export async function listPath(requested: string): Promise<{ display: string; entries: Entry[] }> {
  return inDirectory(requested, async (dir, walk) => {
    const entries: Entry[] = [];
    for (const dirent of await entriesOf(dir)) {
      if (dirent.isFile()) {
        const size = await sizeIn(dir, dirent.name);
        if (size !== null) entries.push({ name: dirent.name, type: 'file', size }); // null: removed meanwhile
      } else {
        entries.push({ name: dirent.name, type: dirent.isDirectory() ? 'directory' : dirent.isSymbolicLink() ? 'symlink' : 'other' });
      }
    }
    return { display: walk.display, entries };
  });
}

/** What a write did. */
export interface Written {
  readonly display: string;
  readonly bytes: number;
  readonly created: boolean;
}

/**
 * Opens the file a write goes to. A new file is created with O_EXCL (never through a link); an existing one
 * must be a regular, single-linked file, and is opened only when `overwrite`. A final link is followed inside
 * the scope, but its target is never created: a link that leads nowhere is refused.
 */
async function openForWrite(walk: Walk, overwrite: boolean): Promise<{ file: fs.FileHandle; created: boolean }> {
  const display = walk.display;
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    if (walk.name === null) throw notRegular(display);
    const at = inside(walk.dir, walk.name);
    if (!walk.linked) {
      try {
        const create = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
        return { file: await openRegular(at, display, create, 0o644), created: true };
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error;
      }
    }
    let stats: Stats;
    try {
      stats = await fs.lstat(at);
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
      if (walk.linked) throw new ScopeError(`${quote(display)} is a symbolic link that leads nowhere; refused.`);
      continue; // removed since the O_EXCL open: create it after all
    }
    if (stats.isSymbolicLink()) {
      await followOrNowhere(walk);
      continue;
    }
    if (!stats.isFile()) throw notRegular(display);
    refuseHardLink(stats, display);
    if (!overwrite) throw new ScopeError(`${quote(display)} already exists; pass overwrite: true to replace it.`);
    try {
      return { file: await openRegular(at, display, constants.O_WRONLY), created: false };
    } catch (error) {
      if (code(error) === 'ELOOP') await followOrNowhere(walk);
      else if (code(error) !== 'ENOENT') throw error;
    }
  }
  throw new ScopeError(`${quote(display)} kept changing while it was opened; refused.`);
}

/** Follows a final link; a target whose directory is missing is a link that leads nowhere. */
async function followOrNowhere(walk: Walk): Promise<void> {
  try {
    await walk.follow();
  } catch (error) {
    if (error instanceof NotFoundError) throw new ScopeError(`${quote(walk.display)} is a symbolic link that leads nowhere; refused.`);
    throw error;
  }
}

/**
 * Writes `content` to a file in an existing directory of the scope, O_EXCL unless `overwrite`. The file is
 * truncated only after fstat has shown it is a regular file with one link, so no O_TRUNC at open.
 */
export async function writePath(requested: string, content: string, overwrite: boolean): Promise<Written> {
  const segments = segmentsOf(requested);
  const display = displayOf(segments);
  if (segments.length === 0) throw new ScopeError('The path names the scope directory itself; give a file path.');
  const directory = quote(displayOf(segments.slice(0, -1)));
  let walk: Walk;
  try {
    walk = await Walk.open(segments, display);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    throw new ScopeError(
      error.notDirectory
        ? `${directory} is not a directory.`
        : `The directory ${directory} does not exist; write_file does not create directories.`,
    );
  }
  try {
    const { file, created } = await openForWrite(walk, overwrite);
    try {
      const data = Buffer.from(content, 'utf8');
      await file.truncate(0);
      await file.writeFile(data);
      return { display, bytes: data.length, created };
    } finally {
      await file.close();
    }
  } finally {
    await walk.close();
  }
}
