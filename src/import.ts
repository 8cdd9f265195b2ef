/**
 * `mcp-gen import server` and `mcp-gen import openapi`: read a running server
 * (live/) or an OpenAPI spec (load/), turn it into a manifest draft (import/),
 * write it without overwriting anything unless forced (write/), then compile
 * it once up to the design review, which the command prints as `check` does.
 */
import path from 'node:path';
import { copyAsJson, draftFromOpenApi, draftFromServer, renderDraft, type Draft } from './import/index.js';
import { parseFilters } from './import/openapi-filters.js';
import { applyOverlay } from './import/overlay.js';
import { describeTarget, readLiveServer, type LiveTarget } from './live/index.js';
import { displayPath, loadRenderedManifest } from './load/index.js';
import { loadOpenApi, readImportText } from './load/openapi.js';
import { ImportError } from './import/import-error.js';
import { runPipeline, type PipelineResult } from './pipeline.js';
import { writeProject } from './write/index.js';
import { writeParsedManifest } from './write/run-record.js';

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
  return writeDraft(draftFromServer(live, source), options);
}

const uncurated: CurationOptions = { include: [], exclude: [], overlays: [] };

/** Reads an OpenAPI 3.x spec, applies the overlays, and writes the draft of the operations the filters keep. */
export async function importOpenApi(
  spec: string,
  options: DraftOptions,
  curation: CurationOptions = uncurated,
): Promise<ImportResult> {
  return writeDraft(await draftOfSpec(spec, options.cwd, curation), options);
}

/**
 * The draft of a spec, in a function of its own: once it returns, nothing holds the spec's bytes and parsed
 * document (GitHub's: 25 MB), which would otherwise stay live while the draft is rendered and written.
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

async function writeDraft(draft: Draft, options: DraftOptions): Promise<ImportResult> {
  const text = renderDraft(draft);
  const target = path.resolve(options.cwd, options.out);
  // A scaffold-owned file is created only when missing: the write stage never overwrites it.
  const report = writeProject(
    path.dirname(target),
    [{ path: path.basename(target), contents: text, ownership: options.force ? 'generated' : 'scaffold' }],
    [],
    'write',
    '',
  );
  const written = !report.actions.some((a) => a.kind === 'keep');
  if (!written) return { written, draft, text, compiled: null };
  // The draft's own data, as parsing the text gives it (JSON keeps what YAML does: plain data, no shared objects),
  // instead of reading and parsing 4.6 MB again for GitHub's description.
  const data = copyAsJson(draft.data);
  const loaded = loadRenderedManifest(text, data, displayPath(target, options.cwd), target);
  const compiled = await runPipeline({ manifest: options.out, cwd: options.cwd, loaded }, 'review');
  // `generate`, run next on the draft as written, finds its data (and its review) in the parse cache.
  writeParsedManifest(target, text, draft.data, { review: compiled.cacheableReview ?? null });
  return { written, draft, text, compiled };
}
