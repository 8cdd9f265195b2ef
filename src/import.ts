/**
 * `mcp-gen import server` and `mcp-gen import openapi`: read a running server
 * (live/) or an OpenAPI spec (load/), turn it into a manifest draft (import/),
 * write it without overwriting anything unless forced (write/), then compile
 * it once up to the design review, which the command prints as `check` does.
 */
import path from 'node:path';
import { copyAsJson, draftFromOpenApi, draftFromServer, renderDraft, type Draft } from './import/index.js';
import { importBasePath, importBaseText, parseImportBase } from './import/import-base.js';
import { parseFilters } from './import/openapi-filters.js';
import { type UpdateOutcome, updateManifest } from './import/update.js';
import { applyOverlay } from './import/overlay.js';
import { describeTarget, readLiveServer, type LiveTarget } from './live/index.js';
import { displayPath, manifestOfData, parseManifest } from './load/index.js';
import { loadOpenApi, readImportText } from './load/openapi.js';
import { collecting, ImportError, type ImportProblem, throwAll } from './import/import-error.js';
import { runPipeline, type PipelineResult } from './pipeline.js';
import { handlerPath } from './model/layout.js';
import type { GeneratedFile } from './emit/index.js';
import { writeProject } from './write/index.js';
import { openParseCache } from './cache/index.js';
import { draftBudget, looksOverBudget, searchDraft, searchFlag, withDiscovery } from './import/search-draft.js';
import { refuseOversizedDraft } from './import/draft-limits.js';

/** Where the draft goes. */
export interface DraftOptions {
  /** The draft's path, relative to `cwd`. */
  readonly out: string;
  /** Replace an existing file at `out`. */
  readonly force: boolean;
  readonly cwd: string;
}

/** How `import openapi` curates: `--include`, `--exclude` (openapi-filters.ts) and `--overlay` files, in order. */
export interface CurationOptions {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly overlays: readonly string[];
}

/** The written draft and its validation; `written` is false when `out` exists and `force` was not given. */
export interface ImportResult {
  readonly written: boolean;
  readonly draft: Draft;
  readonly text: string;
  /**
   * load -> validate -> normalize -> review of the written draft, the one compilation an import makes; null when
   * nothing was written.
   */
  readonly compiled: PipelineResult | null;
}

/** Reads every list of a running server and writes its draft. */
export async function importServer(target: LiveTarget, options: DraftOptions): Promise<ImportResult> {
  const live = await readLiveServer(target);
  const source = {
    description: describeTarget(target),
    transport: target.kind === 'url' ? 'http' : 'stdio',
    headerNames: target.kind === 'url' ? Object.keys(target.headers) : [],
  } as const;
  return writeDraft(draftFromServer(live, source), options, null);
}

const uncurated: CurationOptions = { include: [], exclude: [], overlays: [] };

/** Reads an OpenAPI 3.x spec, applies the overlays, and writes the draft of the operations the filters keep. */
export async function importOpenApi(
  spec: string,
  options: DraftOptions,
  curation: CurationOptions = uncurated,
): Promise<ImportResult> {
  return writeDraft(await draftOfSpec(spec, options.cwd, curation), options, { spec, curation });
}

/**
 * The draft of a spec, in a function of its own: once it returns, nothing holds the spec's bytes and parsed
 * document (many times the draft's size for a large API), which would otherwise stay live while the draft is
 * rendered and written.
 */
async function draftOfSpec(spec: string, cwd: string, curation: CurationOptions, name?: string): Promise<Draft> {
  // Malformed filters and unreadable overlays stop the import before the spec is read, all of them at once.
  const problems: ImportProblem[] = [];
  const filters = collecting(problems, () => parseFilters(curation.include, curation.exclude));
  const overlays = curation.overlays.flatMap((file) => {
    const text = readImportText(file, cwd);
    if (text !== null) return [{ file, text }];
    problems.push({
      code: 'import-overlay',
      message: `${file}: cannot be read`,
      hint: 'pass the path of an Overlay 1.0 file (YAML or JSON) with --overlay',
    });
    return [];
  });
  throwAll(problems);
  const warnings: string[] = [];
  const loaded = await loadOpenApi(spec, cwd, (document) => {
    for (const { file, text } of overlays)
      warnings.push(...(collecting(problems, () => applyOverlay(document, file, text)) ?? []));
    throwAll(problems);
  });
  // throwAll above: the filters parsed.
  const parsed = filters as NonNullable<typeof filters>;
  const draft = draftFromOpenApi(loaded.document, path.posix.basename(spec.split(path.sep).join('/')), parsed, name);
  return { ...draft, warnings: [...warnings, ...(draft.warnings ?? [])] };
}

async function writeDraft(draft: Draft, options: DraftOptions, record: ImportRecord | null): Promise<ImportResult> {
  const budget = draftBudget(draft);
  // Only a spec's draft that chose nothing is switched to search; a running server's draft lists what it listed.
  const switchable = record !== null && draft.data.discovery === undefined;
  // A draft whose tools' own text is past the budget is written with search first: rendering and reviewing the
  // listed draft of a large API only to replace it would double the import. The review decides either way.
  const searchFirst = switchable && looksOverBudget(draft, budget);
  const wrong = (compiled: PipelineResult) =>
    switchable && compiled.review?.context !== undefined && (overBudget(compiled) === null) === searchFirst;
  const first = await writeReviewed(searchFirst ? searchDraft(draft, budget) : draft, options, record, wrong);
  if (!('replaced' in first)) return searchFirst ? flagged(first) : first;
  // The first guess was wrong: the other draft replaces it.
  const target = path.resolve(options.cwd, options.out);
  const other = searchFirst ? draft : searchDraft(draft, budget);
  const otherText = renderDraft(other);
  const otherData = copyAsJson(other.data) as Record<string, unknown>;
  writeProject(
    path.dirname(target),
    [
      { path: path.basename(target), contents: otherText, ownership: 'generated' },
      baseFile(record as ImportRecord, target, options.cwd, otherData),
    ],
    [],
    'write',
    '',
  );
  const compiled = await review(otherText, otherData, target, options, { rendered: true });
  const result = { written: true, draft: other, text: otherText, compiled };
  return searchFirst ? result : flagged(result);
}

/** A search draft's result with the reviewer's flag that gives what its tools would cost listed. */
function flagged(result: ImportResult): ImportResult {
  const listed = result.compiled === null ? null : overBudget(result.compiled);
  return listed === null ? result : { ...result, draft: searchFlag(result.draft, listed) };
}

/**
 * Writes the draft and reviews it, then writes its import record; a draft that `replaced` says is the wrong one
 * gives nothing back, so nothing of its own text, data and review (tens of megabytes for a large API) is still held
 * while the one that replaces it is rendered and reviewed.
 */
async function writeReviewed(
  draft: Draft,
  options: DraftOptions,
  record: ImportRecord | null,
  replaced: (compiled: PipelineResult) => boolean,
): Promise<ImportResult | { readonly replaced: true }> {
  const text = renderDraft(draft);
  refuseOversizedDraft(draft, text);
  const target = path.resolve(options.cwd, options.out);
  // The draft's own data, as parsing the text gives it (JSON keeps what YAML does: plain data, no shared objects),
  // instead of reading and parsing the text again.
  const data = copyAsJson(draft.data) as Record<string, unknown>;
  // A scaffold-owned file is created only when missing: the write stage never overwrites it.
  const manifest: GeneratedFile = {
    path: path.basename(target),
    contents: text,
    ownership: options.force ? 'generated' : 'scaffold',
  };
  const report = writeProject(path.dirname(target), [manifest], [], 'write', '');
  const written = !report.actions.some((a) => a.kind === 'keep');
  if (!written) return { written, draft, text, compiled: null };
  const compiled = await review(text, data, target, options, { replaced, rendered: true });
  if (replaced(compiled)) return { replaced: true };
  if (record !== null)
    writeProject(path.dirname(target), [baseFile(record, target, options.cwd, data)], [], 'write', '');
  return { written, draft, text, compiled };
}

/** What the draft's default tools would cost listed, when that is past the review's budget. */
function overBudget(compiled: PipelineResult): { tokens: number; budget: number } | null {
  const context = compiled.review?.context;
  const budget = compiled.model?.review.maxListTokens;
  if (context === undefined || budget === undefined) return null;
  return context.plain.tokens > budget ? { tokens: context.plain.tokens, budget } : null;
}

/** load -> validate -> normalize -> review of the manifest just written at `target`. */
async function review(
  text: string,
  data: Record<string, unknown>,
  target: string,
  options: DraftOptions,
  how: {
    /** Told the result: true for a draft about to be replaced, whose data is not kept. */
    readonly replaced?: (compiled: PipelineResult) => boolean;
    /** The text is a draft rendered here (not a user's manifest merged by --update). */
    readonly rendered: boolean;
  },
): Promise<PipelineResult> {
  const replaced = how.replaced ?? (() => false);
  const loaded = manifestOfData(text, data, displayPath(target, options.cwd), target);
  // `generate`, run next on the manifest as written, finds its data (and its review) in the cache; not the data of
  // a draft about to be replaced (megabytes of JSON written for a text no run will read again).
  // The piece cache takes the pieces of a draft rendered here from its data; a manifest merged by --update may hold
  // a user's anchors and aliases, which only a parse of each piece tells apart.
  const cache = openParseCache({}, how.rendered);
  const compiled = await runPipeline({ manifest: options.out, cwd: options.cwd, loaded, cache }, 'review');
  if (!replaced(compiled)) cache.save();
  return compiled;
}

/** How an import was made: the spec and the curation, as given (relative to the working directory). */
interface ImportRecord {
  readonly spec: string;
  readonly curation: CurationOptions;
}

/** `.mcp-gen/import-base.json` next to the manifest at `target`, its paths relative to the manifest's folder. */
function baseFile(record: ImportRecord, target: string, cwd: string, draft: Record<string, unknown>): GeneratedFile {
  const folder = path.dirname(target);
  const relative = (file: string) => path.relative(folder, path.resolve(cwd, file)).split(path.sep).join('/');
  const text = importBaseText({
    manifest: path.basename(target),
    spec: relative(record.spec),
    include: record.curation.include,
    exclude: record.curation.exclude,
    overlays: record.curation.overlays.map(relative),
    draft,
  });
  return { path: importBasePath, contents: text, ownership: 'generated' };
}

/**
 * `import openapi --update`: merges what changed in the spec since the last import into the curated manifest at
 * `options.out` (update.ts), reapplying the recorded filters and overlays unless `curation` gives new ones.
 */
export async function updateOpenApi(
  spec: string,
  options: Omit<DraftOptions, 'force'>,
  curation: CurationOptions | null,
): Promise<ImportResult & { readonly update: UpdateOutcome }> {
  const target = path.resolve(options.cwd, options.out);
  const folder = path.dirname(target);
  const shown = displayPath(target, options.cwd);
  const text = readImportText(target, options.cwd);
  const baseText = readImportText(path.join(folder, importBasePath), options.cwd);
  const missing = text === null ? 'does not exist' : baseText === null ? `has no ${importBasePath} next to it` : null;
  if (missing !== null)
    throw new ImportError({
      code: 'import-update',
      message: `${shown} ${missing}`,
      hint: 'run import openapi without --update first: it writes the manifest and the record --update merges against',
    });
  const recordFile = displayPath(path.join(folder, importBasePath), options.cwd);
  const base = parseImportBase(baseText ?? '', recordFile);
  if (base.manifest !== path.basename(target))
    throw new ImportError({
      code: 'import-update',
      message: `${recordFile} records the import of ${JSON.stringify(base.manifest)}, not of ${shown}`,
      hint: `run --update with --out ${base.manifest}; a folder keeps the record of its last import only`,
    });
  const fromFolder = (file: string) => path.relative(options.cwd, path.resolve(folder, file)) || '.';
  const used = curation ?? { include: base.include, exclude: base.exclude, overlays: base.overlays.map(fromFolder) };
  // The last import's server name names the server and its config variables: a retitled API renames none of them.
  const named = (base.draft.server as { name?: unknown } | undefined)?.name;
  const fresh = await draftOfSpec(spec, options.cwd, used, typeof named === 'string' ? named : undefined);
  // The last import chose search for a surface past the budget; the spec's new draft keeps that choice, so the
  // merge does not read it as the spec's own change.
  const draft = base.draft.discovery === undefined ? fresh : withDiscovery(fresh, base.draft.discovery);
  const data = copyAsJson(draft.data) as Record<string, unknown>;
  const handlerExists = (name: string) =>
    readImportText(path.join(folder, handlerPath('tool', name)), options.cwd) !== null;
  const update = updateOf(text ?? '', shown, target, () =>
    updateManifest(text ?? '', shown, base.draft, { ...draft, data }, handlerExists),
  );
  refuseOversizedDraft({ ...draft, data: update.data }, update.text);
  const files: GeneratedFile[] = [
    { path: path.basename(target), contents: update.text, ownership: 'generated' },
    baseFile({ spec, curation: used }, target, options.cwd, data),
  ];
  writeProject(folder, files, [], 'write', '');
  return {
    written: true,
    draft,
    text: update.text,
    compiled: await review(update.text, { ...update.data }, target, { ...options, force: true }, { rendered: false }),
    update,
  };
}

/** `run`; when the manifest `text` does not parse, each problem as `mcp-gen validate` reports it, with its hint. */
function updateOf(text: string, shown: string, target: string, run: () => UpdateOutcome): UpdateOutcome {
  try {
    return run();
  } catch (error) {
    const loaded = error instanceof ImportError ? parseManifest(text, shown, target) : null;
    const found = loaded === null ? [] : loaded.ok ? (loaded.manifest.problems ?? []) : loaded.diagnostics;
    throwAll(found.map(({ code, file, line, col, message, hint = '' }) => ({ code, file, line, col, message, hint })));
    throw error;
  }
}
