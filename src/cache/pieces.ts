/**
 * The piece cache: what each piece of a large manifest (load/piecewise.ts: one tool, one shared schema, one
 * top-level key) parsed to, by the hash of its text, beside the parse cache (`piecesPath`). After an edit of one
 * tool, the next run parses that tool's piece alone and reads every other one back. The file holds the pieces of
 * the last text loaded, so it never outgrows the manifest.
 *
 * `import` fills it from its own draft without parsing (`seed`): each piece of a draft it rendered parses alone to
 * its part of the draft's data, as the library wrote them one document per entry, with no anchor or alias. A text
 * a user edited is never seeded so: an alias in one piece would be read back resolved after its anchor changed.
 */
import { type PieceMemo, piecesOf } from '../load/index.js';
import { hashText } from '../util/hash.js';
import { toolIdentity } from './identity.js';
import { asRecord, keepsAsJson, piecesPath, readCacheFile, saveCacheFile } from './store.js';

/** The memo of one manifest's pieces: asked and told by load, seeded by `import`, saved after the run. */
export interface PieceCache extends PieceMemo {
  /** Takes every piece of `text` from `data`, the data the whole text gives. */
  seed(text: string, data: unknown): void;
  /** True once load asked for a piece: the text was cut, so its pieces, not the parse cache, give it back. */
  asked(): boolean;
  save(): void;
}

/** The piece cache of the manifest at `absolutePath`, read when load first asks. */
export function openPieceCache(absolutePath: string): PieceCache {
  const file = piecesPath(absolutePath);
  let earlier: Map<string, readonly [string, unknown]> | null = null;
  const used = new Map<string, readonly [string, unknown]>();
  let changed = false;
  let asked = false;
  const keep = (hash: string, parsed: readonly [string, unknown]) => {
    if (!keepsAsJson(parsed[1])) return;
    used.set(hash, parsed);
    changed = true;
  };
  return {
    get(text) {
      asked = true;
      earlier ??= readPieces(file);
      const hash = hashText(text);
      const found = earlier.get(hash);
      if (found !== undefined) used.set(hash, found);
      return found;
    },
    set(text, parsed) {
      asked = true;
      keep(hashText(text), parsed);
    },
    asked: () => asked,
    seed(text, data) {
      for (const [piece, parsed] of piecesOf(text, data) ?? []) keep(hashText(piece), parsed);
    },
    save() {
      if (!changed) return;
      const pieces = [...used].map(([hash, [key, value]]) => [hash, key, value]);
      saveCacheFile(file, { format: 1, identity: toolIdentity(), pieces });
    },
  };
}

/** The pieces a cache file holds, checked entry by entry (a cache file is read as untrusted). */
function readPieces(file: string | null): Map<string, readonly [string, unknown]> {
  const saved = asRecord(readCacheFile(file));
  const found = new Map<string, readonly [string, unknown]>();
  if (saved === null || saved.format !== 1 || saved.identity !== toolIdentity() || !Array.isArray(saved.pieces))
    return found;
  for (const entry of saved.pieces as unknown[])
    if (Array.isArray(entry) && entry.length === 3 && typeof entry[0] === 'string' && typeof entry[1] === 'string')
      found.set(entry[0], [entry[1], entry[2]]);
  return found;
}
