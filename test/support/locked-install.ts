import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The pinned projects the tests install from their lockfiles (the interop and conformance harnesses, the published
// OpenAPI documents, the published servers import reads) have no node_modules on a fresh clone. Test files run in
// parallel workers and several need one project: one `npm ci` runs at a time per project, the others wait for it.

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `npm ci <flags>` in `dir` unless `installed()` already holds. A lock directory holds the installer's pid; a
 * waiter rechecks once a second, and takes over a lock whose process is gone.
 */
export function installLocked(
  dir: string,
  flags: readonly string[] = [],
  installed: () => boolean = () => existsSync(path.join(dir, 'node_modules', '.package-lock.json')),
): void {
  const lock = path.join(dir, '.install-lock');
  const deadline = Date.now() + 600_000;
  while (!installed()) {
    try {
      mkdirSync(lock);
    } catch {
      const owner = Number(readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }));
      if (owner > 0 && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`gave up waiting for the install of ${dir} (lock ${lock})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
      continue;
    }
    try {
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      if (installed()) return;
      const npm = spawnSync('npm', ['ci', ...flags, '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 480_000,
      });
      if (npm.status !== 0) throw new Error(`npm ci in ${dir} failed:\n${npm.stdout}${npm.stderr}`);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
