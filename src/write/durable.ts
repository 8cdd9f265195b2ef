import { closeSync, copyFileSync, fsyncSync, linkSync, openSync, writeSync } from 'node:fs';

/**
 * Writes `contents` (a text, bytes, or bytes in pieces, each written before the next is asked for) to a new file
 * and, when asked, flushes it to the disk before returning.
 */
export function writeNewFile(file: string, contents: string | Buffer | Iterable<Buffer>, flush: boolean): void {
  const fd = openSync(file, 'wx');
  try {
    if (typeof contents === 'string') writeSync(fd, contents);
    else
      for (const piece of Buffer.isBuffer(contents) ? [contents] : contents)
        for (let done = 0; done < piece.length; ) done += writeSync(fd, piece, done);
    if (flush) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Flushes a directory's entries (files created, renamed or removed in it).
 * Some platforms (Windows) cannot open a directory for this; there the
 * rename itself is all the durability there is.
 */
export function syncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EISDIR/EINVAL/EPERM: the file system does not sync directories
  } finally {
    closeSync(fd);
  }
}

/**
 * Keeps the current bytes of `file` at `backup` without touching `file`: a
 * hard link when the file system has them (instant, and the old contents stay
 * reachable after `file` is replaced by a rename), a copy otherwise, flushed
 * when asked.
 */
export function keepCopy(file: string, backup: string, flush: boolean): void {
  try {
    linkSync(file, backup);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EMLINK' && code !== 'ENOSYS')
      throw error;
  }
  copyFileSync(file, backup);
  if (!flush) return;
  const fd = openSync(backup, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
