/**
 * `mcp-gen import server` and `mcp-gen import openapi`: read a running server
 * (live/) or an OpenAPI spec (load/), turn it into a manifest draft (import/),
 * write it without overwriting anything unless forced (write/), then compile
 * it once up to the design review, which the command prints as `check` does.
 */
import path from 'node:path';
import { copyAsJson, draftFromOpenApi, draftFromServer, renderDraft, type Draft } from './import/index.js';
import { describeTarget, readLiveServer, type LiveTarget } from './live/index.js';
import { displayPath, manifestOfData } from './load/index.js';
import { loadOpenApi } from './load/openapi.js';
import { runPipeline, type PipelineResult } from './pipeline.js';
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

/** Reads an OpenAPI 3.x spec and writes its draft. */
export async function importOpenApi(spec: string, options: DraftOptions): Promise<ImportResult> {
  return writeDraft(await draftOfSpec(spec, options.cwd), options);
}

/**
 * The draft of a spec, in a function of its own: once it returns, nothing holds the spec's bytes and parsed
 * document (many times the draft's size for a large API), which would otherwise stay live while the draft is
 * rendered and written.
 */
async function draftOfSpec(spec: string, cwd: string): Promise<Draft> {
  const loaded = await loadOpenApi(spec, cwd);
  return draftFromOpenApi(loaded.document, path.posix.basename(spec.split(path.sep).join('/')));
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
  // instead of reading and parsing the text again.
  const data = copyAsJson(draft.data);
  const loaded = manifestOfData(text, data, displayPath(target, options.cwd), target);
  // `generate`, run next on the draft as written, finds its data (and its review) in the cache.
  const cache = openParseCache();
  const compiled = await runPipeline({ manifest: options.out, cwd: options.cwd, loaded, cache }, 'review');
  cache.save();
  return { written, draft, text, compiled };
}
