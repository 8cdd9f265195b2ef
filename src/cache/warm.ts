/**
 * The warm cache: what one process that generates again and again (`generate --watch`, `dev`) keeps in memory
 * between its runs, so that a save which edited one tool costs about one tool's work.
 *
 * - Pieces (load/piecewise.ts) by their text: a piece the save did not touch gives back the very same object as
 *   in the run before (frozen, so no stage can change what the next run reads), without hashing or reading a file.
 * - A memo (util/memo.ts) by identity: a stage's value for an object it saw in the run before. Everything outside
 *   `tools:` is the context of every value: when any piece outside it is new, gone or moved, or the text was not
 *   read in pieces at all, every value is computed again.
 * - Generated files: the text each one holds, while its identity on disk says nobody wrote it since, so the write
 *   stage compares a file of the same size in memory instead of reading it.
 *
 * The pieces (pieces.ts), the parse cache's entry (parsed.ts) and the run record (record.ts) are written by `flush`,
 * when the process ends, not after every run: the files serve the next process, and a watcher killed before it
 * only leaves that one slower.
 */
import path from 'node:path';
import type { GeneratedFile } from '../emit/index.js';
import type { PieceMemo } from '../load/index.js';
import type { FileText } from '../util/file-text.js';
import { type KnownProjectFile, stampOf } from '../write/index.js';
import { deepFreeze } from '../util/freeze.js';
import type { Memo } from '../util/memo.js';
import { openPieceCache, type PieceCache } from './pieces.js';

type Parsed = readonly [string, unknown];

/** What a process keeps between its runs; one per manifest. */
export interface WarmCache {
  /** The pieces of the manifest at `absolutePath`, for this run. */
  pieces(absolutePath: string): PieceMemo;
  readonly memo: Memo;
  /** Called before each run reads the manifest. */
  beginRun(): void;
  /** True once a run asked the memo anything: a run the run record answered fills nothing. */
  primed(): boolean;
  /** The generated files of `outDir` whose text this process knows: those it wrote, untouched since. */
  known(outDir: string): KnownProjectFile;
  /** Told the generated files a writing run left in `outDir`, as they are on disk now. */
  remember(outDir: string, files: readonly GeneratedFile[]): void;
  /** Keeps a run's save of one cache file (`what`) for `flush`, in place of the run before's. */
  defer(what: 'parsed' | 'record', save: () => void): void;
  /** Writes the pieces the last run used to the piece cache's file, and the last deferred save. */
  flush(): void;
}

/** The key of a piece that is one entry of `tools:`; every other piece is context. */
const toolsKey = 'tools';

/** A warm cache, empty until its first run. */
export function openWarmCache(): WarmCache {
  let file: string | null = null;
  let disk: PieceCache | null = null;
  // The pieces of the last run by their text, and this run's.
  let earlier = new Map<string, Parsed>();
  let used = new Map<string, Parsed>();
  // This run's pieces outside `tools:` in the text's order, the last settled run's, and whether pieces were read.
  let context: unknown[] = [];
  let settledContext: unknown[] | null = null;
  let inPieces = false;
  let settled = false;
  let epoch = 0;
  let primed = false;
  const deferred = new Map<string, () => void>();
  // Each generated file's text by its absolute path, with the file's identity (inode and change time) when it was
  // left so: a file anybody wrote since has another change time, and is read again.
  let written = new Map<string, { readonly stamp: string; readonly text: FileText }>();
  const take = (text: string, parsed: Parsed): Parsed => {
    used.set(text, parsed);
    inPieces = true;
    if (parsed[0] !== toolsKey) context.push(parsed[1]);
    return parsed;
  };
  const memoOf = (absolutePath: string): PieceMemo => {
    if (file !== absolutePath) {
      file = absolutePath;
      disk = openPieceCache(absolutePath);
      earlier = new Map();
      settledContext = null;
    }
    return {
      get(text) {
        const known = earlier.get(text) ?? frozen(disk?.get(text));
        return known === undefined ? undefined : take(text, known);
      },
      set(text, parsed) {
        take(text, deepFreeze(parsed));
      },
    };
  };
  // The first value asked of a run settles its epoch: the one before, when the context is the same objects.
  const settle = () => {
    if (settled) return;
    settled = true;
    const same =
      inPieces &&
      settledContext !== null &&
      settledContext.length === context.length &&
      settledContext.every((value, i) => value === context[i]);
    if (!same) epoch += 1;
    settledContext = inPieces ? context : null;
  };
  const tables = new Map<string, WeakMap<object, { readonly epoch: number; readonly value: unknown }>>();
  return {
    pieces: memoOf,
    memo: {
      recall(table, key, compute) {
        settle();
        primed = true;
        let values = tables.get(table);
        if (values === undefined) {
          values = new WeakMap();
          tables.set(table, values);
        }
        const entry = values.get(key);
        if (entry !== undefined && entry.epoch === epoch) return entry.value as ReturnType<typeof compute>;
        const value = compute(key);
        values.set(key, { epoch, value });
        return value;
      },
    },
    primed: () => primed,
    beginRun() {
      if (used.size > 0) earlier = used;
      used = new Map();
      context = [];
      inPieces = false;
      settled = false;
    },
    known(outDir) {
      return (relative) => {
        const file = path.join(outDir, relative);
        const entry = written.get(file);
        return entry !== undefined && stampOf(file) === entry.stamp ? entry.text : undefined;
      };
    },
    remember(outDir, files) {
      written = new Map();
      for (const file of files) {
        if (file.ownership !== 'generated') continue;
        const absolute = path.join(outDir, file.path);
        const stamp = stampOf(absolute);
        if (stamp !== null) written.set(absolute, { stamp, text: file.parts ?? file.contents });
      }
    },
    defer(what, save) {
      deferred.set(what, save);
    },
    flush() {
      for (const save of deferred.values()) save();
      deferred.clear();
      // The last run's pieces: those it used, or the run's before when it read none (a YAML error).
      const last = used.size > 0 ? used : earlier;
      if (file === null || last.size === 0) return;
      const kept = openPieceCache(file);
      for (const [text, parsed] of last) kept.set(text, parsed);
      kept.save();
    },
  };
}

/** A piece read from the file, frozen as every piece this cache hands out. */
function frozen(parsed: Parsed | undefined): Parsed | undefined {
  return parsed === undefined ? undefined : deepFreeze(parsed);
}
