import { existsSync, readFileSync, realpathSync } from 'node:fs';
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

/**
 * How a new project's package.json asks for mcp-gen: decided here, once, for `init` and `generate` alike, and
 * only when the project has no package.json yet (after that the file is the user's).
 */
export interface McpGenInstall {
  /** The devDependency spec. */
  readonly spec: string;
  /** The tarball to pack into the project first, and the package root it is packed from; null when none. */
  readonly pack: { readonly file: string; readonly from: string } | null;
}

/** The file `npm pack` writes for this mcp-gen. */
export function mcpGenTarball(version: string): string {
  return `mcp-gen-${version}.tgz`;
}

/**
 * The rule, so that a plain `npm install` works in the new project (`^<version>` fails with E404 while this
 * mcp-gen is on no registry):
 * 1. from a registry: `^<version>`;
 * 2. the project already holds this mcp-gen's tarball (packed by an earlier `init`): `file:./<tarball>`;
 * 3. `init`: packs the tarball into the project and installs from it, so the project carries its own copy;
 * 4. `generate` from a checkout or a link: `file:<relative path to that checkout>`, which npm installs as a link
 *    without a registry. `generate` never packs: a pack takes seconds and drops a file the user did not ask for
 *    into every folder it generates; `init` is the command that sets a project up for handing on;
 * 5. otherwise (a tarball install in another project's node_modules, which npm may replace; another drive):
 *    `^<version>`, as before.
 */
export function decideMcpGenInstall(
  projectDir: string,
  command: 'init' | 'generate',
  origin: McpGenOrigin = findMcpGenOrigin(),
): McpGenInstall {
  const registry = { spec: `^${origin.version}`, pack: null };
  if (origin.fromRegistry) return registry;
  const file = mcpGenTarball(origin.version);
  if (existsSync(path.join(projectDir, file))) return { spec: `file:./${file}`, pack: null };
  if (command === 'init') return { spec: `file:./${file}`, pack: { file, from: origin.root } };
  const relative = path.relative(realFolder(projectDir), origin.root);
  if (relative === '' || path.isAbsolute(relative) || origin.root.split(path.sep).includes('node_modules'))
    return registry;
  return { spec: `file:${relative.split(path.sep).join('/')}`, pack: null };
}

/** `dir` with symbolic links resolved (as the origin's root is), also when it does not exist yet. */
function realFolder(dir: string): string {
  const absolute = path.resolve(dir);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(realFolder(parent), path.basename(absolute));
  }
}
