import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { WriteError } from './errors.js';

/**
 * Packs the package at `root` into `fileName` (what npm names it) in `destDir` with
 * `npm pack`, so that a project can install it without a registry. Scripts are
 * not run: the package is packed as it is installed, built files included. A
 * tarball that already exists is kept, as every other file of the project.
 * Returns the tarball's file name.
 */
export function packPackage(root: string, fileName: string, destDir: string): string {
  if (existsSync(path.join(destDir, fileName))) return fileName;
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
    throw new WriteError(`could not pack ${fileName} from ${root} into the project with "npm pack": ${reason}`);
  }
  return fileName;
}
