import { spawnSync } from 'node:child_process';
import { constants, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { WriteError } from './errors.js';

/**
 * Packs the package at `root` into `<name>-<version>.tgz` in `destDir` with
 * `npm pack`, so that a project can install it without a registry. Scripts are
 * not run: the package is packed as it is installed, built files included. A
 * tarball that already exists is kept, as every other file of the project.
 * Returns the tarball's file name.
 */
export function packPackage(
  root: string,
  name: string,
  version: string,
  destDir: string,
  cached: (fileName: string) => string | null = () => null,
): string {
  const fileName = tarballName(name, version);
  if (existsSync(path.join(destDir, fileName))) return fileName;
  const copy = cached(fileName);
  if (copy !== null && isPrivateFile(copy)) {
    copyFileSync(copy, path.join(destDir, fileName));
    return fileName;
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', destDir, root], {
    encoding: 'utf8',
    timeout: 120_000,
    shell: process.platform === 'win32',
  });
  if (result.status !== 0 || !existsSync(path.join(destDir, fileName))) {
    const reason =
      result.error?.message ??
      result.stderr.trim().split('\n').pop() ??
      `npm pack exited with ${String(result.status)}`;
    throw new WriteError(`could not pack ${name} ${version} from ${root} into the project with "npm pack": ${reason}`);
  }
  if (copy !== null) keepCopy(path.join(destDir, fileName), copy);
  return fileName;
}

/** The file `npm pack` writes for `name` at `version`. */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace(/\//g, '-')}-${version}.tgz`;
}

/** A file in a folder only this user may write to (the run cache's rule: a shared folder could hold a forgery). */
function isPrivateFile(file: string): boolean {
  const dir = statSync(path.dirname(file), { throwIfNoEntry: false });
  const uid = process.getuid?.();
  const ok = dir?.isDirectory() === true && (uid === undefined || (dir.uid === uid && (dir.mode & 0o022) === 0));
  return ok && statSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

/** Saves the tarball for the next project, whole (a rename), best-effort: it is only a cache. */
function keepCopy(from: string, to: string): void {
  const temporary = `${to}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
    const dir = statSync(path.dirname(to));
    const uid = process.getuid?.();
    if (uid !== undefined && (dir.uid !== uid || (dir.mode & 0o022) !== 0)) return;
    // `copyFileSync` would follow a link planted at the temporary path: COPYFILE_EXCL refuses any existing file.
    copyFileSync(from, temporary, constants.COPYFILE_EXCL);
    renameSync(temporary, to);
  } catch {
    rmSync(temporary, { force: true });
  }
}
