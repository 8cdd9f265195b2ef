import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the running mcp-gen was installed from, for the devDependency of a new project. */
export interface McpGenOrigin {
  /** The package root (the folder holding mcp-gen's package.json), symlinks resolved. */
  readonly root: string;
  readonly version: string;
  /** True when it came from a package registry, so `^version` installs the same release. */
  readonly fromRegistry: boolean;
}

/**
 * The rule: mcp-gen came from a registry when its package root (symlinks
 * resolved) lies inside a `node_modules` folder and the project that installed
 * it does not record it as a link or a local source. A `file:` folder install
 * or `npm link` is a symlink into a checkout, so its real path is outside any
 * `node_modules`; a `file:` tarball is copied into `node_modules`, but npm's
 * lockfile there records its `resolved` as `file:...`. Global and `npx`
 * installs without such a record count as registry installs.
 */
export function findMcpGenOrigin(packageRoot: URL = new URL('../../', import.meta.url)): McpGenOrigin {
  const root = realpathSync(fileURLToPath(packageRoot));
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const segments = root.split(path.sep);
  const first = segments.indexOf('node_modules');
  if (first < 0) return { root, version: pkg.version, fromRegistry: false };
  const entry = lockEntry(segments.slice(0, first).join(path.sep), segments.slice(first).join('/'));
  const local =
    entry !== undefined &&
    (entry.link === true || (typeof entry.resolved === 'string' && !/^https?:\/\//.test(entry.resolved)));
  return { root, version: pkg.version, fromRegistry: !local };
}

/** The package's record in npm's lockfiles of the installing project, if any. */
function lockEntry(project: string, key: string): { resolved?: unknown; link?: unknown } | undefined {
  for (const file of [
    path.join(project, 'node_modules', '.package-lock.json'),
    path.join(project, 'package-lock.json'),
  ]) {
    try {
      const lock = JSON.parse(readFileSync(file, 'utf8')) as {
        packages?: Record<string, { resolved?: unknown; link?: unknown }>;
      };
      const entry = lock.packages?.[key];
      if (entry !== undefined) return entry;
    } catch {
      // no lockfile, or not one npm wrote: look at the next
    }
  }
  return undefined;
}
