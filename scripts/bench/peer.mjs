// The comparison generator, openapi-mcp-generator, at the exact version pinned in
// scripts/bench/peer/package.json and package-lock.json, and the framework the HTTP rows compare with,
// fastmcp, pinned in scripts/bench/fastmcp/. Neither is a dependency of mcp-gen: on the first run (or
// after a pin changes) each is installed with `npm ci` into .bench/<folder>/, which git ignores.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Installs the packages pinned in scripts/bench/<folder>/ into `<benchDir>/<folder>` unless the same lock is
 * already there; returns the folder and the installed package.json of `name`.
 */
function ensurePinned(benchDir, folder, NAME) {
  const pinDir = fileURLToPath(new URL(`./${folder}/`, import.meta.url));
  const dir = path.join(benchDir, folder);
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
  return { dir, manifest: readJson(installed) };
}

/** openapi-mcp-generator: `{ name, version, bin }` with the path of its command-line script. */
export function ensurePeer(benchDir) {
  const name = 'openapi-mcp-generator';
  const { dir, manifest } = ensurePinned(benchDir, 'peer', name);
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  return { name, version: manifest.version, bin: path.join(dir, 'node_modules', name, bin) };
}

/** fastmcp: `{ name, version, modules }`, the node_modules folder it is installed in. */
export function ensureFastmcp(benchDir) {
  const { dir, manifest } = ensurePinned(benchDir, 'fastmcp', 'fastmcp');
  return { name: 'fastmcp', version: manifest.version, modules: path.join(dir, 'node_modules') };
}
