/**
 * `mcp-gen init`: a new server project from a starting point (a blank server
 * or one of the examples), then a full generate, so that it installs, starts,
 * type-checks and passes its contract tests right away.
 */
import path from 'node:path';
import { resolveOptions } from './config/index.js';
import type { Diagnostic } from './diagnostics/index.js';
import { bannerMark } from './emit/index.js';
import { generateProject } from './generate.js';
import { manifestFile } from './model/layout.js';
import {
  customizeManifest,
  decideMcpGenInstall,
  fileOnPath,
  listFolder,
  loadInitAssets,
  type InitExample,
} from './load/index.js';
import { packPackage, recoverWrites, writeProject, type WriteAction } from './write/index.js';
import { shellWord } from './util/shell-word.js';

/** The choices of one `init`, after flags and questions. */
export interface InitOptions {
  readonly dir: string;
  readonly name: string | undefined;
  readonly example: InitExample;
  readonly transport: 'stdio' | 'http' | 'both' | undefined;
  /** `protocol.legacy`; undefined keeps the starting point's, which is `serve` for every one of them. */
  readonly legacy?: 'serve' | 'reject' | undefined;
  readonly force: boolean;
}

export type InitResult =
  | { readonly ok: false; readonly error: string }
  | {
      readonly ok: true;
      readonly target: string;
      readonly actions: readonly WriteAction[];
      readonly diagnostics: readonly Diagnostic[];
      readonly next: readonly string[];
      /** When mcp-gen came from no registry: the tarball packed into the project, and where from. */
      readonly packed: { readonly file: string; readonly from: string } | null;
    };

/** A valid server name from a folder name: `My Server!` -> `my-server`. */
export function serverNameFor(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, 64);
  return name === '' ? 'mcp-server' : name;
}

/**
 * Creates the project; never overwrites a file that already exists. When the
 * running mcp-gen came from no registry (a checkout, a link, a tarball), it is
 * packed into the project and package.json installs it from there with a
 * relative `file:` spec, so that a plain `npm install` works and `npx mcp-gen`
 * runs this same version; generated text holds no absolute path.
 */
export async function initProject(options: InitOptions, cwd: string, mcpGenVersion: string): Promise<InitResult> {
  const target = path.resolve(cwd, options.dir);
  const file = fileOnPath(target);
  if (file !== null) {
    const where = file === target ? 'a file' : `a path under the file "${path.relative(cwd, file) || '.'}"`;
    return { ok: false, error: `"${options.dir}" is ${where}, not a folder; name a new or empty folder` };
  }
  // An init killed half-way is finished or undone first, so the folder is judged as it really is.
  if (listFolder(target).length > 0) recoverWrites(target);
  const existing = listFolder(target).filter((f) => f !== '.git');
  if (existing.length > 0 && !options.force) {
    return {
      ok: false,
      error:
        `"${options.dir}" is not empty; use --force to add the ` +
        'project there (existing files are never overwritten)',
    };
  }
  const assets = loadInitAssets(options.example);
  const name = options.name ?? (options.example === 'blank' ? serverNameFor(path.basename(target)) : undefined);
  const manifest = customizeManifest(assets.manifest, { name, transport: options.transport, legacy: options.legacy });
  const starters = [
    { path: manifestFile, contents: manifest, ownership: 'scaffold' as const },
    ...[...assets.handlers].map(([file, contents]) => ({ path: file, contents, ownership: 'scaffold' as const })),
  ];
  const started = writeProject(target, starters, [], 'write', bannerMark);
  // A package.json already there is the user's: no spec to decide, nothing to pack.
  const install = existing.includes('package.json') ? null : decideMcpGenInstall(target, 'init');
  const packed =
    install?.pack == null
      ? null
      : { file: packPackage(install.pack.from, install.pack.file, target), from: install.pack.from };
  const resolved = resolveOptions({ manifest: path.join(target, manifestFile) }, cwd);
  const generated = await generateProject(
    {
      ...resolved,
      ...(install === null ? {} : { mcpGenDependency: install.spec }),
      starterDependencies: assets.dependencies,
    },
    mcpGenVersion,
    cwd,
  );
  const shown = path.relative(cwd, target).split(path.sep).join('/') || '.';
  return {
    ok: true,
    target,
    // The starters this run wrote show once, as created: generate then keeps them, but they were not "existing".
    actions: [
      ...started.actions,
      ...(generated.report?.actions ?? []).filter((a) => !starters.some((s) => s.path === a.path)),
    ],
    diagnostics: generated.diagnostics,
    // npm test builds the project and runs its contract tests, so it comes before the server is started.
    next: [...(shown === '.' ? [] : [`cd ${shellWord(shown)}`]), 'npm install', 'npm test', 'npm start'],
    packed,
  };
}
