import { lstatSync, readFileSync, type Stats, statSync } from 'node:fs';
import { WriteError } from './errors.js';
import path from 'node:path';
import type { GeneratedFile, Ownership } from '../emit/index.js';
import { isGeneratedLocation } from '../model/layout.js';
import { type FileText, sameFileText } from '../util/file-text.js';

/** What the writer does with one path. */
export type ActionKind = 'create' | 'update' | 'unchanged' | 'keep' | 'move' | 'remove';

/** One planned change (or non-change) on disk, relative to the project root. */
export interface WriteAction {
  readonly kind: ActionKind;
  readonly path: string;
  readonly ownership: Ownership | 'stale';
  readonly contents?: FileText;
  readonly from?: string;
}

/** Raised when a planned path would leave the output folder; always a bug, never user input. */
export class PathEscapeError extends Error {
  override readonly name = 'PathEscapeError';
}

/** The absolute path of `relative` inside `root`, refusing anything that escapes it. */
export function inside(root: string, relative: string): string {
  if (relative === '' || path.isAbsolute(relative) || relative.split(/[\\/]/).includes('..'))
    throw new PathEscapeError(`planned path "${relative}" escapes the output folder`);
  const absolute = path.resolve(root, ...relative.split('/'));
  const back = path.relative(root, absolute);
  if (back.startsWith('..') || path.isAbsolute(back))
    throw new PathEscapeError(`planned path "${relative}" escapes the output folder`);
  return absolute;
}

/**
 * The size in bytes of the regular file at `relative`, undefined when there is none, or -1 for a symbolic link:
 * it differs from every text and is never read, so a link planted in a file's place (`DESIGN.md -> ~/.ssh/key`)
 * has its target neither read nor written; the run replaces the link itself.
 */
function sizeOnDisk(root: string, relative: string): number | undefined {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(inside(root, relative), { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
    throw fileInFolderPlace(root, relative);
  }
  if (stat === undefined) return undefined;
  if (stat.isSymbolicLink()) return -1;
  if (!stat.isFile()) throw new WriteError(`could not write "${relative}" (not a regular file); nothing was changed`);
  return stat.size;
}

/** The refusal of `relative` when a file stands where one of its folders must be (the first such, from the root). */
function fileInFolderPlace(root: string, relative: string): WriteError {
  const parts = relative.split('/');
  let file = parts.slice(0, -1).join('/');
  for (let n = 1; n < parts.length; n++) {
    const dir = parts.slice(0, n).join('/');
    if (statSync(inside(root, dir), { throwIfNoEntry: false })?.isDirectory() === false) {
      file = dir;
      break;
    }
  }
  return new WriteError(
    `could not write "${relative}": "${file}" is a file, and mcp-gen needs a folder there; nothing was changed\n` +
      `  hint: move the file "${file}" out of the way (or rename it), then run generate again`,
  );
}

function read(root: string, relative: string): string | undefined {
  const size = sizeOnDisk(root, relative);
  return size === undefined || size < 0 ? undefined : readFileSync(inside(root, relative), 'utf8');
}

/**
 * A user's file that a run rewrites (a renamed handler, README.md's part, package.json's keys) gets its text as
 * decoded, edited: bytes that are not UTF-8 would come out as U+FFFD, lost. Such a file is refused before anything
 * is written, so the user's bytes stay where they are. `to` is where the rewritten text goes, when it moves.
 */
function refuseLossyRewrite(root: string, relative: string, to?: string): void {
  const bytes = readFileSync(inside(root, relative));
  if (Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)) return;
  const [change, result, byHand] =
    to === undefined
      ? [`update "${relative}"`, 'updated', '']
      : [`rename "${relative}" to "${to}"`, 'renamed', `, or move it to "${to}" and rename its handler by hand`];
  throw new WriteError(
    `could not ${change}: it is not UTF-8 text, so the ${result} file would not hold its bytes; nothing was ` +
      `changed\n  hint: save "${relative}" as UTF-8 and run generate again${byHand}`,
  );
}

/** A project file's text by its root-relative path, or undefined when there is none. */
export type ReadProjectFile = (relative: string) => string | undefined;

/** A generated file's text, when known without reading it (what this process wrote there, untouched since). */
export type KnownProjectFile = (relative: string) => FileText | undefined;

/**
 * Whether `relative` is spelled as mcp-gen writes a path: folders and a name joined by single slashes, no `.` or
 * `..`. The marker is a file of the project, edited by hand or by a merge; any other spelling names no file a run
 * wrote (`../x` is outside the project, `a/./b` is `a/b`), so it is never removed as stale.
 */
function asWritten(relative: string): boolean {
  return relative.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\'));
}

/**
 * Whether `old` is, on this disk, a file this run plans under another spelling: on a file system that ignores
 * case, `Types.gen.ts` is `types.gen.ts`, and removing it would delete the file just written.
 */
function namesPlannedFile(root: string, old: string, files: readonly GeneratedFile[]): boolean {
  const folded = old.toLowerCase();
  const stat = statSync(inside(root, old), { throwIfNoEntry: false });
  if (stat === undefined) return false;
  return files.some((file) => {
    if (file.path.toLowerCase() !== folded) return false;
    const other = statSync(inside(root, file.path), { throwIfNoEntry: false });
    return other !== undefined && other.dev === stat.dev && other.ino === stat.ino;
  });
}

/** The UTF-8 size of `text`, as writing it makes the file. */
function byteLength(text: FileText): number {
  if (typeof text === 'string') return Buffer.byteLength(text, 'utf8');
  let length = 0;
  for (const part of text) length += Buffer.byteLength(part, 'utf8');
  return length;
}

/**
 * Compares planned files with the disk: unchanged files are not rewritten,
 * scaffold files that exist are kept, stale generated files are removed only
 * when the previous run's marker lists them, they sit in the generated folder
 * and still carry the banner. `readFile` replaces the disk for tests that keep
 * a whole project in memory; `known` gives generated files whose text is known without reading them.
 */
export function planActions(
  root: string,
  files: readonly GeneratedFile[],
  previouslyGenerated: readonly string[],
  bannerMark: string,
  { readFile, known }: { readonly readFile?: ReadProjectFile; readonly known?: KnownProjectFile | undefined } = {},
): WriteAction[] {
  const readText = readFile ?? ((relative: string) => read(root, relative));
  // A file of another size differs without being read: after an edit, the large generated files (the registry,
  // DESIGN.md) are megabytes that would be read and decoded only to be replaced.
  const sizeOf =
    readFile === undefined
      ? (relative: string) => sizeOnDisk(root, relative)
      : (relative: string) => {
          const text = readFile(relative);
          return text === undefined ? undefined : byteLength(text);
        };
  const actions: WriteAction[] = [];
  const planned = new Set(files.map((f) => f.path));
  for (const file of files) {
    const size = sizeOf(file.path);
    const text = file.parts ?? file.contents;
    if (file.movedFrom !== undefined) {
      if (readFile === undefined) refuseLossyRewrite(root, file.movedFrom, file.path);
      actions.push({
        kind: 'move',
        path: file.path,
        ownership: file.ownership,
        contents: text,
        from: file.movedFrom,
      });
    } else if (file.ownership === 'scaffold') {
      actions.push(
        size === undefined
          ? { kind: 'create', path: file.path, ownership: 'scaffold', contents: text }
          : { kind: 'keep', path: file.path, ownership: 'scaffold' },
      );
    } else if (size === undefined) {
      actions.push({ kind: 'create', path: file.path, ownership: file.ownership, contents: text });
    } else {
      const same = (current: FileText | undefined) => current !== undefined && sameFileText(current, text);
      const knownText = file.ownership === 'generated' ? known?.(file.path) : undefined;
      // A file of another size differs; one this process wrote and nobody touched since is compared in memory.
      const unchanged =
        knownText !== undefined ? same(knownText) : same(size === byteLength(text) ? readText(file.path) : undefined);
      if (!unchanged && file.ownership === 'user-edit' && readFile === undefined) refuseLossyRewrite(root, file.path);
      actions.push(
        unchanged
          ? { kind: 'unchanged', path: file.path, ownership: file.ownership }
          : { kind: 'update', path: file.path, ownership: file.ownership, contents: text },
      );
    }
  }
  for (const old of previouslyGenerated) {
    if (planned.has(old) || !isGeneratedLocation(old) || !asWritten(old)) continue;
    if (readFile === undefined && namesPlannedFile(root, old, files)) continue;
    const text = readText(old);
    if (text === undefined) continue;
    const ours = text.startsWith(bannerMark) || /\.gen\.json$/.test(old);
    if (ours) actions.push({ kind: 'remove', path: old, ownership: 'stale' });
  }
  return actions;
}
