/**
 * The directory scope: every path a client names is relative to one directory, given as server
 * configuration in the FILES_ROOT environment variable (not the deprecated Roots feature).
 *
 * A path is checked twice before anything is read or written:
 * 1. lexically: no absolute path, no drive letter, no backslash, no NUL, no ".." segment;
 * 2. physically: the path is resolved with fs.realpath (every symbolic link followed) and must still be
 *    the scope directory or inside it.
 * Files are then opened with O_NOFOLLOW, so a final component swapped for a link after the check is refused
 * by the kernel instead of followed, and with O_NONBLOCK, so that a FIFO or device planted in the scope cannot
 * block the open; the opened file must be a regular file with a single link (fstat), since a hard link in the
 * scope may name a file outside it, which no path check can see.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';

/** The environment variable naming the scope directory. */
export const rootEnv = 'FILES_ROOT';

/** The largest file `read` returns. */
export const maxReadBytes = 1024 * 1024;

/** A path refused by the scope rules; the message is meant for the client. */
export class ScopeError extends Error {
  override readonly name = 'ScopeError';
}

/** The scope itself is misconfigured (FILES_ROOT unset or not a directory): a server problem, not the client's. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A path inside the scope that does not exist. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** The real path of the scope directory (symbolic links resolved). */
export async function scopeRoot(environment: NodeJS.ProcessEnv = process.env): Promise<string> {
  const configured = environment[rootEnv];
  if (configured === undefined || configured === '') {
    throw new ConfigError(`${rootEnv} is not set: start the server with ${rootEnv}=<directory> to choose the directory it may use.`);
  }
  let real: string;
  let stats: Stats;
  try {
    real = await fs.realpath(configured);
    stats = await fs.stat(real);
  } catch {
    throw new ConfigError(`${rootEnv} does not name an existing directory.`);
  }
  if (!stats.isDirectory()) throw new ConfigError(`${rootEnv} does not name a directory.`);
  return real;
}

/**
 * The segments of a client path, checked lexically. "" and "." name the scope itself. The path is quoted
 * back in messages with JSON.stringify, so control characters cannot forge lines.
 */
export function segmentsOf(requested: string): string[] {
  const quoted = JSON.stringify(requested);
  if (requested.includes('\u0000')) throw new ScopeError(`${quoted} contains a NUL character.`);
  if (requested.startsWith('/') || /^[A-Za-z]:/.test(requested)) {
    throw new ScopeError(`${quoted} is an absolute path; paths are relative to the scope directory.`);
  }
  if (requested.includes('\\')) throw new ScopeError(`${quoted} contains a backslash; separate segments with /.`);
  const segments = requested.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new ScopeError(`${quoted} leaves the scope directory; ".." is not allowed.`);
  return segments;
}

/** The client-facing form of a path: segments joined with /, or "." for the scope itself. */
export function displayOf(segments: readonly string[]): string {
  return segments.length === 0 ? '.' : segments.join('/');
}

function inside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

function code(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** An existing entry of the scope, resolved. */
export interface Resolved {
  readonly root: string;
  /** The real path, symbolic links resolved; inside the scope. */
  readonly real: string;
  /** The path as the client should see it. */
  readonly display: string;
}

/** Resolves an existing path: lexical check, realpath, containment. Nothing is read. */
export async function resolveExisting(requested: string): Promise<Resolved> {
  const segments = segmentsOf(requested);
  const display = displayOf(segments);
  const root = await scopeRoot();
  let real: string;
  try {
    real = await fs.realpath(path.join(root, ...segments));
  } catch (error) {
    const reason = code(error);
    if (reason === 'ENOENT' || reason === 'ENOTDIR') throw new NotFoundError(`${JSON.stringify(display)} does not exist.`);
    if (reason === 'ELOOP') throw new ScopeError(`${JSON.stringify(display)} is a loop of symbolic links.`);
    throw error;
  }
  if (!inside(root, real)) throw new ScopeError(`${JSON.stringify(display)} resolves outside the scope directory through a symbolic link; refused.`);
  return { root, real, display };
}

/** Where a write goes, once checked. */
export interface WriteTarget {
  readonly root: string;
  /** The real path to open: inside the scope, in an existing directory. */
  readonly target: string;
  readonly display: string;
  readonly exists: boolean;
}

/**
 * Resolves the target of a write without touching it: the directory must exist and resolve inside the scope;
 * an existing target that is a symbolic link must lead to a regular file inside the scope.
 */
export async function resolveForWrite(requested: string): Promise<WriteTarget> {
  const segments = segmentsOf(requested);
  const display = displayOf(segments);
  const name = segments.at(-1);
  if (name === undefined) throw new ScopeError('The path names the scope directory itself; give a file path.');
  const root = await scopeRoot();
  const directory = displayOf(segments.slice(0, -1));
  let parent: string;
  try {
    parent = await fs.realpath(path.join(root, ...segments.slice(0, -1)));
  } catch (error) {
    const reason = code(error);
    if (reason === 'ENOENT' || reason === 'ENOTDIR') throw new ScopeError(`The directory ${JSON.stringify(directory)} does not exist; write_file does not create directories.`);
    if (reason === 'ELOOP') throw new ScopeError(`${JSON.stringify(directory)} is a loop of symbolic links.`);
    throw error;
  }
  if (!inside(root, parent)) throw new ScopeError(`${JSON.stringify(display)} resolves outside the scope directory through a symbolic link; refused.`);
  if (!(await fs.stat(parent)).isDirectory()) throw new ScopeError(`${JSON.stringify(directory)} is not a directory.`);
  const target = path.join(parent, name);
  let stats: Stats;
  try {
    stats = await fs.lstat(target);
  } catch (error) {
    if (code(error) === 'ENOENT') return { root, target, display, exists: false };
    throw error;
  }
  if (stats.isSymbolicLink()) {
    let real: string;
    try {
      real = await fs.realpath(target);
    } catch {
      throw new ScopeError(`${JSON.stringify(display)} is a symbolic link that leads nowhere; refused.`);
    }
    if (!inside(root, real)) throw new ScopeError(`${JSON.stringify(display)} resolves outside the scope directory through a symbolic link; refused.`);
    stats = await fs.stat(real);
    if (!stats.isFile()) throw new ScopeError(`${JSON.stringify(display)} is not a regular file.`);
    refuseHardLink(stats, display);
    return { root, target: real, display, exists: true };
  }
  if (!stats.isFile()) throw new ScopeError(`${JSON.stringify(display)} is not a regular file.`);
  refuseHardLink(stats, display);
  return { root, target, display, exists: true };
}

/** A file with more than one name may be the same file as one outside the scope: refused. */
function refuseHardLink(stats: Stats, display: string): void {
  if (stats.nlink > 1) throw new ScopeError(`${JSON.stringify(display)} has ${stats.nlink} hard links, so it may be a file outside the scope directory; refused.`);
}

/** Opens a checked path without following a final link and without blocking, and requires a regular, single-linked file. */
async function openRegular(real: string, display: string, flags: number, mode?: number): Promise<fs.FileHandle> {
  let file: fs.FileHandle;
  try {
    file = await fs.open(real, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  } catch (error) {
    const reason = code(error);
    if (reason === 'EEXIST') throw new ScopeError(`${JSON.stringify(display)} already exists; pass overwrite: true to replace it.`);
    if (reason === 'ELOOP') throw new ScopeError(`${JSON.stringify(display)} became a symbolic link; refused.`);
    if (reason === 'ENXIO') throw new ScopeError(`${JSON.stringify(display)} is not a regular file.`); // a FIFO without a reader
    throw error;
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw new ScopeError(`${JSON.stringify(display)} is not a regular file.`);
    refuseHardLink(stats, display);
    return file;
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** Reads a resolved regular file (at most maxReadBytes): no final symbolic link, FIFO, device or hard link. */
export async function readResolved(resolved: Resolved): Promise<Buffer> {
  const file = await openRegular(resolved.real, resolved.display, constants.O_RDONLY);
  try {
    const stats = await file.stat();
    if (stats.size > maxReadBytes) throw new ScopeError(`${JSON.stringify(resolved.display)} is ${stats.size} bytes; at most ${maxReadBytes} can be read.`);
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** Writes `content` to a checked target: O_NOFOLLOW always, O_EXCL unless `overwrite`. Returns the bytes written. */
export async function writeChecked(target: WriteTarget, content: string, overwrite: boolean): Promise<number> {
  if (target.exists && !overwrite) throw new ScopeError(`${JSON.stringify(target.display)} already exists; pass overwrite: true to replace it.`);
  // No O_TRUNC: the file is truncated only after fstat has shown it is a regular file with one link.
  const file = await openRegular(target.target, target.display, constants.O_WRONLY | constants.O_CREAT | (overwrite ? 0 : constants.O_EXCL), 0o644);
  try {
    const data = Buffer.from(content, 'utf8');
    await file.truncate(0);
    await file.writeFile(data);
    return data.length;
  } finally {
    await file.close();
  }
}

/** One entry of a directory listing. */
export interface Entry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Bytes, for regular files only. */
  readonly size?: number;
}

/** The entries of a resolved directory, sorted by name; symbolic links are reported, not followed. */
export async function listResolved(resolved: Resolved): Promise<Entry[]> {
  const stats = await fs.stat(resolved.real);
  if (!stats.isDirectory()) throw new ScopeError(`${JSON.stringify(resolved.display)} is not a directory.`);
  const dirents = await fs.readdir(resolved.real, { withFileTypes: true });
  const entries: Entry[] = [];
  for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (dirent.isFile()) {
      const size = await fs.lstat(path.join(resolved.real, dirent.name)).then((entry) => entry.size, () => null);
      if (size !== null) entries.push({ name: dirent.name, type: 'file', size }); // null: removed meanwhile
    } else {
      entries.push({ name: dirent.name, type: dirent.isDirectory() ? 'directory' : dirent.isSymbolicLink() ? 'symlink' : 'other' });
    }
  }
  return entries;
}

/** Decodes a percent-encoded URI template variable; a malformed encoding is refused. */
export function decodeVariable(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ScopeError('The path in the URI is not valid percent-encoding.');
  }
}
