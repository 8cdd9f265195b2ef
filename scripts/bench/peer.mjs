// The comparison generator, openapi-mcp-generator, at the exact version pinned in
// scripts/bench/peer/package.json and package-lock.json. It is never a dependency of mcp-gen: on
// the first run (or after the pin changes) it is installed with `npm ci` into .bench/peer/, which
// git ignores.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pinDir = fileURLToPath(new URL('./peer/', import.meta.url));
const NAME = 'openapi-mcp-generator';

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Installs the pinned peer into `<benchDir>/peer` unless the same pin is already there; returns
 * `{ name, version, bin }` with the path of its command-line script.
 */
export function ensurePeer(benchDir) {
  const dir = path.join(benchDir, 'peer');
  const pinned = readJson(path.join(pinDir, 'package.json')).dependencies[NAME];
  const installed = path.join(dir, 'node_modules', NAME, 'package.json');
  const sameLock =
    existsSync(path.join(dir, 'package-lock.json')) &&
    readFileSync(path.join(dir, 'package-lock.json'), 'utf8') ===
      readFileSync(path.join(pinDir, 'package-lock.json'), 'utf8');
  if (!sameLock || !existsSync(installed) || readJson(installed).version !== pinned) {
    process.stderr.write(
      `bench: installing ${NAME} ${pinned} into ${path.relative(process.cwd(), dir) || dir} (first run only)...\n`,
    );
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const file of ['package.json', 'package-lock.json'])
      copyFileSync(path.join(pinDir, file), path.join(dir, file));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    try {
      execFileSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: dir,
        stdio: ['ignore', 'inherit', 'inherit'],
        timeout: 600_000,
      });
    } catch (error) {
      throw new Error(
        `could not install ${NAME} ${pinned} into ${dir} (npm ci failed; is the registry reachable?): ${error.message}`,
      );
    }
  }
  const manifest = readJson(installed);
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[NAME];
  return { name: NAME, version: manifest.version, bin: path.join(dir, 'node_modules', NAME, bin) };
}
