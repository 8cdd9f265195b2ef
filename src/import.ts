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
import { displayPath, manifestOfData } from './load/index.js';
import { loadOpenApi, readImportText } from './load/openapi.js';
import { ImportError } from './import/import-error.js';
import { runPipeline, type PipelineResult } from './pipeline.js';
import { handlerPath } from './model/layout.js';
import type { GeneratedFile } from './emit/index.js';
import { writeProject } from './write/index.js';
import { openParseCache } from './cache/index.js';

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
async function draftOfSpec(spec: string, cwd: string, curation: CurationOptions): Promise<Draft> {
  // A malformed filter stops the import before the spec is read.
  const filters = parseFilters(curation.include, curation.exclude);
  const overlays = curation.overlays.map((file) => {
    const text = readImportText(file, cwd);
    if (text === null)
      throw new ImportError({
        code: 'import-overlay',
        message: `${file}: cannot be read`,
        hint: 'pass the path of an Overlay 1.0 file (YAML or JSON) with --overlay',
      });
    return { file, text };
  });
  const warnings: string[] = [];
  const loaded = await loadOpenApi(spec, cwd, (document) => {
    for (const { file, text } of overlays) warnings.push(...applyOverlay(document, file, text));
  });
  const draft = draftFromOpenApi(loaded.document, path.posix.basename(spec.split(path.sep).join('/')), filters);
  return { ...draft, warnings: [...warnings, ...(draft.warnings ?? [])] };
}

async function writeDraft(draft: Draft, options: DraftOptions, record: ImportRecord | null): Promise<ImportResult> {
  const first = await writeReviewed(draft, options, record);
  if (!('listed' in first)) return first;
  // Listed as tools, the draft would fail its own gate: it serves them through search instead, and says so.
  const target = path.resolve(options.cwd, options.out);
  const searched = searchDraft(draft, first.listed);
  const searchedText = renderDraft(searched);
  const searchedData = copyAsJson(searched.data) as Record<string, unknown>;
  writeProject(
    path.dirname(target),
    [
      { path: path.basename(target), contents: searchedText, ownership: 'generated' },
      baseFile(record as ImportRecord, target, options.cwd, searchedData),
    ],
    [],
    'write',
    '',
  );
  return {
    written: true,
    draft: searched,
    text: searchedText,
    compiled: await review(searchedText, searchedData, target, options),
  };
}

/**
 * Writes the draft and reviews it, then writes its import record; a draft past the budget gives only what the search
 * draft that replaces it needs, so nothing of its own text, data and review (tens of megabytes for a large API) is
 * still held while that one is rendered and reviewed.
 */
async function writeReviewed(
  draft: Draft,
  options: DraftOptions,
  record: ImportRecord | null,
): Promise<ImportResult | { readonly listed: { tokens: number; budget: number } }> {
  const text = renderDraft(draft);
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
  const past = (result: PipelineResult) => (record === null ? null : overBudget(draft, result));
  const compiled = await review(text, data, target, options, (result) => past(result) !== null);
  const listed = past(compiled);
  if (listed !== null) return { listed };
  if (record !== null)
    writeProject(path.dirname(target), [baseFile(record, target, options.cwd, data)], [], 'write', '');
  return { written, draft, text, compiled };
}

/** What the draft's tools would cost listed, when that is past the review's budget and the draft chose nothing. */
function overBudget(draft: Draft, compiled: PipelineResult): { tokens: number; budget: number } | null {
  const context = compiled.review?.context;
  const budget = compiled.model?.review.maxListTokens;
  if (context === undefined || budget === undefined || draft.data.discovery !== undefined) return null;
  return context.plain.tokens > budget ? { tokens: context.plain.tokens, budget } : null;
}

/** The draft with `discovery` after its upstream, before its toolsets and tools. */
function withDiscovery(draft: Draft, discovery: unknown): Draft {
  const { mcpGen, server, config, upstream, ...rest } = draft.data;
  return { ...draft, data: { mcpGen, server, config, upstream, discovery, ...rest } };
}

/** The draft with `discovery: search`, a note that says why and a flag for the reviewer. */
function searchDraft(draft: Draft, listed: { tokens: number; budget: number }): Draft {
  const count = Object.keys((draft.data.tools as Record<string, unknown> | undefined) ?? {}).length;
  const why =
    `Listed as tools, the ${count} tools cost about ${listed.tokens} tokens in tools/list, more than ` +
    `review.maxListTokens (${listed.budget}): tools/list serves search_tools and call_tool instead`;
  return {
    ...withDiscovery(draft, 'search'),
    notes: [
      ...draft.notes,
      { path: ['discovery'], text: `${why}; choose a small default with toolsets, then remove this line to list them` },
    ],
    flags: [...draft.flags, `${why} (discovery: search)`],
  };
}

/** load -> validate -> normalize -> review of the manifest just written at `target`. */
async function review(
  text: string,
  data: Record<string, unknown>,
  target: string,
  options: DraftOptions,
  replaced: (compiled: PipelineResult) => boolean = () => false,
): Promise<PipelineResult> {
  const loaded = manifestOfData(text, data, displayPath(target, options.cwd), target);
  // `generate`, run next on the manifest as written, finds its data (and its review) in the cache; not the data of
  // a draft about to be replaced (megabytes of JSON written for a text no run will read again).
  const cache = openParseCache();
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
  const used = curation ?? {
    include: base.include,
    exclude: base.exclude,
    overlays: base.overlays.map(fromFolder),
  };
  const fresh = await draftOfSpec(spec, options.cwd, used);
  // The last import chose search for a surface past the budget; the spec's new draft keeps that choice, so the
  // merge does not read it as the spec's own change.
  const draft = base.draft.discovery === undefined ? fresh : withDiscovery(fresh, base.draft.discovery);
  const data = copyAsJson(draft.data) as Record<string, unknown>;
  const handlerExists = (name: string) =>
    readImportText(path.join(folder, handlerPath('tool', name)), options.cwd) !== null;
  const update = updateManifest(text ?? '', shown, base.draft, { ...draft, data }, handlerExists);
  const files: GeneratedFile[] = [
    { path: path.basename(target), contents: update.text, ownership: 'generated' },
    baseFile({ spec, curation: used }, target, options.cwd, data),
  ];
  writeProject(folder, files, [], 'write', '');
  const full = { out: options.out, cwd: options.cwd, force: true };
  return {
    written: true,
    draft,
    text: update.text,
    compiled: await review(update.text, { ...update.data }, target, full),
    update,
  };
}
