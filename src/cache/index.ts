/**
 * The caches of mcp-gen, in one place, around the pipeline: the stages know nothing of them. `import` and
 * `generate` open one cache per run and hand it to `runPipeline` (pipeline-io.ts `PipelineCache`), which asks it
 * what a stage would find again (the data a text parses to, the review of a text that validated cleanly, handler
 * check verdicts) and tells it what each stage produced; `save` then keeps what the next run may reuse. `generate`
 * also asks it for the run record (record.ts): the outcome of a run over the same inputs, which spares the pipeline.
 * Everything lives outside the project, in a folder private to this user (store.ts); nothing a
 * cache fails to read or save changes a run's outcome, only its cost.
 */
import type { ResolvedOptions } from '../config/index.js';
import type { Diagnostic, Finding } from '../diagnostics/index.js';
import type { HandlerVerdicts } from '../emit/index.js';
import { loadManifestHash, type ExistingProject, type PieceMemo } from '../load/index.js';
import { largeManifestChars } from '../model/limits.js';
import type { PipelineCache, PipelineResult } from '../pipeline-io.js';
import type { Review } from '../review/index.js';
import { compareText } from '../util/compare.js';
import { hashTextOnce } from '../util/hash.js';
import type { WriteReport } from '../write/index.js';
import { toolIdentity } from './identity.js';
import { loadParsed, type ParsedEntry, reviewedOf, saveParsed } from './parsed.js';
import { openPieceCache, type PieceCache } from './pieces.js';
import { findUpToDate, runKey, saveRunRecord } from './record.js';
import { asRecord, handlerChecksPath, readCacheFile, saveCacheFile } from './store.js';
import type { WarmCache } from './warm.js';

export { openWarmCache, type WarmCache } from './warm.js';

/** How a cache is tuned: a test keeps the data of every manifest, however short (`minChars: 0`). */
export interface CacheTuning {
  /** Below this many characters a manifest parses quickly: its data is not worth a file. */
  readonly minChars?: number;
}

/** The cache of one `import` (the parse cache alone). */
export interface ParseCache extends PipelineCache {
  /** Keeps what the run found for the next one. */
  save(): void;
}

/** The cache of one `generate` run over one output folder. */
export interface RunCache extends PipelineCache {
  /** The hash of the run's inputs: the manifest as it was when the cache was opened, and `existing`. */
  key(existing: ExistingProject): string | null;
  /** The same hash over the manifest as it is on disk now: a plan whose key changed is stale. */
  keyNow(existing: ExistingProject): string | null;
  /** The recorded outcome for `key`, when the folder still holds what that run left. */
  recorded(key: string | null): { diagnostics: readonly Diagnostic[]; report: WriteReport } | null;
  /** Keeps what a run that built found, for the next run; `existing` is the project it read. */
  save(existing: ExistingProject, result: PipelineResult): void;
}

/**
 * Opens the parse cache alone (no handler verdicts are kept): what `import` hands the review of its draft. With
 * `seedPieces`, the piece cache takes every piece of the text from its data (pieces.ts): only for a draft `import`
 * rendered itself.
 */
export function openParseCache(tuning: CacheTuning = {}, seedPieces = false): ParseCache {
  return { ...parseCache(tuning, { seedPieces, keepPieced: true }), handlerVerdicts: new Map() };
}

/**
 * Opens the cache for a `generate` run of `options`; reads the manifest, whose hash the run's key is made of. With
 * `warm`, the cache a process keeps between its runs (warm.ts), pieces come from memory and stages may recall.
 */
export function openRunCache(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string,
  tuning: CacheTuning = {},
  warm?: WarmCache,
): RunCache {
  // Only the hash of the manifest is kept (as manifestHash of its bytes): load reads and decodes the text the run uses.
  const hash = loadManifestHash(options.manifest, cwd);
  const keyOf = (textHash: string | null, existing: ExistingProject) =>
    textHash === null ? null : runKey(options, mcpGenVersion, cwd, textHash, existing);
  warm?.beginRun();
  const parse = parseCache(tuning, { keepPieced: false, ...(warm === undefined ? {} : { warm }) });
  const verdicts = verdictCache(options.outDir);
  return {
    parsed: parse.parsed,
    pieces: parse.pieces,
    reviewed: parse.reviewed,
    observe: parse.observe,
    handlerVerdicts: verdicts,
    ...(warm === undefined ? {} : { memo: warm.memo }),
    key: (existing) => keyOf(hash, existing),
    keyNow: (existing) => keyOf(loadManifestHash(options.manifest, cwd), existing),
    recorded: (key) => (key === null ? null : findUpToDate(options.outDir, key)),
    save(existing, result) {
      parse.save();
      verdicts.save();
      if (warm !== undefined && result.written !== null && options.mode === 'write')
        warm.remember(options.outDir, result.files);
      // Recorded only when the pipeline read the same manifest text that the key was made of.
      const { written, files, diagnostics, manifest } = result;
      if (written === null || hash === null || manifest === null) return;
      const record = () => {
        if (hashTextOnce(manifest.text) !== hash) return;
        saveRunRecord(options, mcpGenVersion, cwd, {
          manifestHash: hash,
          existing,
          files,
          report: written,
          diagnostics,
        });
      };
      // A watching process records its last run when it ends: hashing every file after each save is for nobody.
      if (warm === undefined) record();
      else warm.defer('record', record);
    },
  };
}

/** The parse cache's part of a run: what it answered, what it was told, and what it saves. */
function parseCache(
  tuning: CacheTuning,
  how: { readonly seedPieces?: boolean; readonly keepPieced: boolean; readonly warm?: WarmCache },
) {
  const { seedPieces = false, keepPieced, warm } = how;
  const minChars = tuning.minChars ?? largeManifestChars;
  let memo: { readonly file: string; readonly pieces: PieceCache } | null = null;
  let warmPieces = false;
  const piecesOfFile = (file: string): PieceCache => {
    if (memo === null || memo.file !== file) memo = { file, pieces: openPieceCache(file) };
    return memo.pieces;
  };
  const piecesOf = (file: string): PieceMemo => {
    if (warm === undefined) return piecesOfFile(file);
    warmPieces = true;
    return warm.pieces(file);
  };
  // The last text looked up and what the cache held for it (a miss too: reading the file again costs as much).
  let looked: { readonly file: string; readonly text: string; readonly entry: ParsedEntry | undefined } | null = null;
  let seen: { readonly file: string; readonly text: string; readonly data: unknown } | null = null;
  let clean: Review | null = null;
  const lookUp = (file: string, text: string): ParsedEntry | undefined => {
    if (text.length < minChars) return undefined;
    if (looked === null || looked.file !== file || looked.text !== text)
      looked = { file, text, entry: loadParsed(file, text) };
    return looked.entry;
  };
  return {
    parsed: (file: string, text: string) => lookUp(file, text)?.data,
    reviewed: (file: string, text: string) => reviewedOf(lookUp(file, text)),
    pieces: piecesOf,
    observe(stage: string, result: PipelineResult) {
      const { manifest } = result;
      if (manifest === null) return;
      // A text with load errors (duplicate keys) is never kept: read back, it would skip them.
      if (stage === 'load' && manifest.problems === undefined)
        seen = { file: manifest.absolutePath, text: manifest.text, data: manifest.data };
      else if (stage === 'review' && result.review !== null && result.diagnostics.length === 0) clean = result.review;
    },
    save() {
      if (seen === null || seen.text.length < minChars) return;
      if (seedPieces) piecesOfFile(seen.file).seed(seen.text, seen.data);
      memo?.pieces.save();
      // For `generate`, a text load cut into pieces reads back from them: its whole data is worth a second file
      // only with a review to keep (`import`'s draft is read by the `generate` after it without cutting).
      if (!keepPieced && clean === null && (warmPieces || memo?.pieces.asked() === true)) return;
      // Nothing new: the entry read holds this text's data, and its review when this run found one.
      const entry =
        looked !== null && looked.file === seen.file && looked.text === seen.text ? looked.entry : undefined;
      if (entry !== undefined && (clean === null || entry.review !== undefined)) return;
      const { file, text, data } = seen;
      const review = clean;
      if (warm === undefined) saveParsed(file, text, data, review);
      else warm.defer('parsed', () => saveParsed(file, text, data, review));
    },
  };
}

/**
 * The handler checks' verdicts for `outDir`, when they were made by this very mcp-gen (its code, templates and
 * package.json hash to the recorded identity), read when emit first asks; `save` keeps only this run's, so the
 * file never grows past the project's handler files.
 */
function verdictCache(outDir: string): HandlerVerdicts & { save(): void } {
  let earlier: Map<string, readonly Finding[]> | null = null;
  const now = new Map<string, readonly Finding[]>();
  return {
    get(key) {
      earlier ??= loadVerdicts(outDir);
      return earlier.get(key);
    },
    set(key, findings) {
      now.set(key, findings);
    },
    save() {
      if (now.size === 0) return;
      const checks = [...now].sort((a, b) => compareText(a[0], b[0]));
      saveCacheFile(handlerChecksPath(outDir), { identity: toolIdentity(), checks });
    },
  };
}

function loadVerdicts(outDir: string): Map<string, readonly Finding[]> {
  const parsed = asRecord(readCacheFile(handlerChecksPath(outDir)));
  if (parsed === null || parsed.identity !== toolIdentity() || !Array.isArray(parsed.checks)) return new Map();
  return new Map(
    (parsed.checks as unknown[]).filter(
      (entry): entry is [string, Finding[]] =>
        Array.isArray(entry) && typeof entry[0] === 'string' && Array.isArray(entry[1]),
    ),
  );
}
