import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { handlerDirs, markerPath, scaffoldPaths } from '../model/layout.js';
import { compareText } from '../util/compare.js';

/** What already exists in the output folder and matters to the next run. */
export interface ExistingProject {
  /** Handler files by project-relative path (forward slashes), with their text. */
  readonly handlers: ReadonlyMap<string, string>;
  /** Files listed in the marker of the previous run, or null when there is none. */
  readonly previouslyGenerated: readonly string[] | null;
  /** The project's package.json, or null (or absent) when there is none: a run keeps mcp-gen's keys in step. */
  readonly packageJson?: string | null;
  /** The project's README.md, or null (or absent) when there is none: a run keeps its marked part in step. */
  readonly readme?: string | null;
}

/** Reads the handler files and the marker under `outDir`; a missing folder is an empty project. */
export function loadProject(outDir: string): ExistingProject {
  const handlers = new Map<string, string>();
  for (const folder of Object.values(handlerDirs)) {
    const dir = path.join(outDir, ...folder.split('/'));
    // A file in a handler folder's place (or above it) holds no handlers; the write stage names it if a stub is due.
    if (statOrNone(dir)?.isDirectory() !== true) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => compareText(a.name, b.name))) {
      const name = entry.name;
      if (!entry.isFile() || !name.endsWith('.ts') || name.endsWith('.d.ts')) continue;
      handlers.set(`${folder}/${name}`, readFileSync(path.join(dir, name), 'utf8'));
    }
  }
  let previouslyGenerated: string[] | null = null;
  const marker = path.join(outDir, ...markerPath.split('/'));
  if (existsSync(marker)) {
    try {
      const parsed = JSON.parse(readFileSync(marker, 'utf8')) as { files?: unknown };
      previouslyGenerated = Array.isArray(parsed.files)
        ? parsed.files.filter((f): f is string => typeof f === 'string')
        : [];
    } catch {
      previouslyGenerated = [];
    }
  }
  return {
    handlers,
    previouslyGenerated,
    packageJson: readProjectFile(outDir, scaffoldPaths.packageJson),
    readme: readProjectFile(outDir, scaffoldPaths.readme),
  };
}

/**
 * `statSync` of `file`, or undefined when nothing is there: not even its folder, or a file stands in the place of
 * one of its folders (`ENOTDIR`, which `throwIfNoEntry` does not cover).
 */
function statOrNone(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Whether the project holds the file `relative` (a project path). */
export function hasProjectFile(outDir: string, relative: string): boolean {
  return statOrNone(path.join(outDir, ...relative.split('/')))?.isFile() === true;
}

/**
 * The text of the project file `relative` (a project path), or null when it is no file. A symbolic link is read
 * only when its target lies inside the project: one that leads out (a checkout's `package.json -> ~/.docker/
 * config.json`) is not read, or its text would be merged into the project's file; the run keeps the link as it is.
 */
function readProjectFile(outDir: string, relative: string): string | null {
  const file = path.join(outDir, ...relative.split('/'));
  if (statOrNone(file)?.isFile() !== true) return null;
  if (lstatSync(file).isSymbolicLink()) {
    const back = path.relative(realpathSync(outDir), realpathSync(file));
    if (back.startsWith('..') || path.isAbsolute(back)) return null;
  }
  return readFileSync(file, 'utf8');
}

/** Package assets the emitters copy or render: runtime sources and text templates, by relative path. */
export function loadTemplates(): ReadonlyMap<string, string> {
  const root = new URL('../../templates/', import.meta.url);
  const files = new Map<string, string>();
  const walk = (relative: string) => {
    const dir = new URL(relative, root);
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => compareText(a.name, b.name))) {
      const child = `${relative}${entry.name}`;
      if (entry.isDirectory()) walk(`${child}/`);
      else if (entry.name !== 'tsconfig.json') files.set(child, readFileSync(new URL(child, root), 'utf8'));
    }
  };
  walk('');
  return files;
}

/** The entries of `dir` (none when it does not exist), for `init`'s empty-folder check. */
export function listFolder(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort(compareText) : [];
}

/**
 * The file (something other than a folder) at `dir` or at the nearest existing folder above it, so that no project
 * folder can be made at `dir`; null when there is none.
 */
export function fileOnPath(dir: string): string | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const stat = statOrNone(at);
    if (stat !== undefined) return stat.isDirectory() ? null : at;
    if (path.dirname(at) === at) return null;
  }
}

/**
 * Whether the file at `file` may be replaced by a design report: it does not exist, or it is one (a DESIGN.md that
 * starts with mcp-gen's banner, or a DESIGN.json with a gate and a verdict). Anything else is the user's.
 */
export function holdsNoUserReport(file: string): boolean {
  const stat = statOrNone(file);
  if (stat === undefined) return true;
  if (!stat.isFile()) return false;
  const text = readFileSync(file, 'utf8');
  if (text.startsWith('<!-- Generated by mcp-gen')) return true;
  try {
    const data = JSON.parse(text) as unknown;
    return typeof data === 'object' && data !== null && 'gate' in data && 'verdict' in data;
  } catch {
    return false;
  }
}

/** True when `dir` exists and is a folder: `report --out` writes only into an existing folder. */
export function isFolder(dir: string): boolean {
  return statOrNone(dir)?.isDirectory() === true;
}
