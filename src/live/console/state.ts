/**
 * What the console shows after each save: the design review of the manifest (the gate, the findings, what
 * `tools/list` costs a model) and what the running server lists, read over the wire as a client reads it. Each tool
 * carries the handles it consumes and issues (from the manifest: the wire schema does not say), so the page can keep
 * a handle one tool returns and offer it to the tools that take it.
 */
import { checkManifest } from '../../check.js';
import type { ServerModel } from '../../model/types.js';
import type { Review } from '../../review/index.js';
import { readLiveServer, type WireItem } from '../index.js';
import type { SessionTarget } from '../session.js';

export interface ReviewSummary {
  readonly passed: boolean;
  readonly listTokens: number;
  readonly listBytes: number;
  readonly perTool: readonly { readonly name: string; readonly tokens: number }[];
  readonly gate: readonly {
    readonly id: string;
    readonly title: string;
    readonly status: string;
    readonly reason: string;
  }[];
  readonly findings: readonly {
    readonly severity: string;
    readonly code: string;
    readonly message: string;
    readonly where: string;
  }[];
}

export interface ConsoleState {
  readonly version: number;
  readonly status: 'ok' | 'failed';
  readonly typeErrors: readonly string[];
  readonly server: { readonly name: string; readonly url: string };
  readonly error: string | null;
  readonly review: ReviewSummary;
  readonly tools: readonly WireItem[];
  readonly resources: readonly WireItem[];
  readonly resourceTemplates: readonly WireItem[];
  readonly prompts: readonly WireItem[];
  /** Whether the server offers `completion/complete`: the page asks it as a template's or prompt's field is typed. */
  readonly completions: boolean;
}

/** The review as the page shows it, the heaviest tools first; without a review (a manifest error), its errors. */
function summarize(review: Review | null, diagnostics: Awaited<ReturnType<typeof checkManifest>>['diagnostics']) {
  const perTool = [...(review?.context.tools ?? [])]
    .sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : 1))
    .map(({ name, tokens }) => ({ name, tokens }));
  return {
    passed: review !== null && !review.failed,
    listTokens: review?.cost.tokens ?? 0,
    listBytes: review?.cost.bytes ?? 0,
    perTool,
    gate: (review?.gate ?? []).map(({ id, title, status, reason }) => ({ id, title, status, reason })),
    findings: diagnostics.map((d) => ({
      severity: d.severity === 'info' ? 'note' : d.severity,
      code: d.code,
      message: d.message,
      where: `${d.file}:${d.line}:${d.col}`,
    })),
  };
}

/** Each listed tool with its handle uses from the model (none for a tool the model does not know). */
function withHandles(tools: readonly WireItem[], model: ServerModel | null): WireItem[] {
  const byName = new Map((model?.tools ?? []).map((tool) => [tool.name, tool]));
  return tools.map((tool) => {
    const known = byName.get(String(tool.name));
    return { ...tool, handles: { consumes: known?.consumes ?? [], issues: known?.issues ?? [] } };
  });
}

/** Reviews the manifest, then lists the server at `target()`; a server that cannot be reached is an `error`. */
export async function readConsoleState(
  manifest: string,
  cwd: string,
  target: () => SessionTarget & { readonly kind: 'url' },
  build: { readonly version: number; readonly typeErrors: readonly string[] },
  onModel: (model: ServerModel | null) => void,
): Promise<ConsoleState> {
  const checked = await checkManifest(manifest, undefined, cwd);
  // The model says how to reach the server (a bearer token): known before the server is listed.
  onModel(checked.model);
  const review = summarize(checked.review, checked.diagnostics);
  const base = {
    version: build.version,
    status: build.typeErrors.length === 0 ? ('ok' as const) : ('failed' as const),
    typeErrors: build.typeErrors,
    server: { name: checked.model?.server.name ?? '', url: target().url },
    review,
  };
  try {
    const live = await readLiveServer(target());
    return {
      ...base,
      error: null,
      tools: withHandles(live.tools, checked.model),
      resources: live.resources,
      resourceTemplates: live.resourceTemplates,
      prompts: live.prompts,
      completions: live.capabilities.completions !== undefined,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      error: message,
      tools: [],
      resources: [],
      resourceTemplates: [],
      prompts: [],
      completions: false,
    };
  }
}
