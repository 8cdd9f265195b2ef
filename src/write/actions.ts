import { existsSync, readFileSync, statSync } from 'node:fs';
import { WriteError } from './errors.js';
import path from 'node:path';
import type { GeneratedFile, Ownership } from '../emit/index.js';
import { isGeneratedLocation } from '../model/layout.js';
import { type FileText, sameText } from '../util/file-text.js';

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

function read(root: string, relative: string): string | undefined {
  const file = inside(root, relative);
  if (!existsSync(file)) return undefined;
  if (!statSync(file).isFile())
    throw new WriteError(`could not write "${relative}" (not a regular file); nothing was changed`);
  return readFileSync(file, 'utf8');
}

/** A project file's text by its root-relative path, or undefined when there is none. */
export type ReadProjectFile = (relative: string) => string | undefined;

/**
 * Compares planned files with the disk: unchanged files are not rewritten,
 * scaffold files that exist are kept, stale generated files are removed only
 * when the previous run's marker lists them, they sit in the generated folder
 * and still carry the banner. `readFile` replaces the disk for tests that keep
 * a whole project in memory.
 */
export function planActions(
  root: string,
  files: readonly GeneratedFile[],
  previouslyGenerated: readonly string[],
  bannerMark: string,
  readFile: ReadProjectFile = (relative) => read(root, relative),
): WriteAction[] {
  const actions: WriteAction[] = [];
  const planned = new Set(files.map((f) => f.path));
  for (const file of files) {
    const current = readFile(file.path);
    const text = file.parts ?? file.contents;
    if (file.movedFrom !== undefined) {
      inside(root, file.movedFrom);
      actions.push({
        kind: 'move',
        path: file.path,
        ownership: file.ownership,
        contents: text,
        from: file.movedFrom,
      });
    } else if (file.ownership === 'scaffold') {
      actions.push(
        current === undefined
          ? { kind: 'create', path: file.path, ownership: 'scaffold', contents: text }
          : { kind: 'keep', path: file.path, ownership: 'scaffold' },
      );
    } else if (current === undefined) {
      actions.push({ kind: 'create', path: file.path, ownership: file.ownership, contents: text });
    } else {
      actions.push(
        sameText(current, text)
          ? { kind: 'unchanged', path: file.path, ownership: file.ownership }
          : { kind: 'update', path: file.path, ownership: file.ownership, contents: text },
      );
    }
  }
  for (const old of previouslyGenerated) {
    if (planned.has(old) || !isGeneratedLocation(old)) continue;
    const text = readFile(old);
    if (text === undefined) continue;
    const ours = text.startsWith(bannerMark) || /\.gen\.json$/.test(old);
    if (ours) actions.push({ kind: 'remove', path: old, ownership: 'stale' });
  }
  return actions;
}
