/**
 * The context budget: what the tools a deployment lists by default cost in `tools/list`, and which documented host
 * limits that surface breaks (model/host-limits.ts). Past `review.maxListTokens`, or on a limit of a host named in
 * `review.hosts`, the finding is an error and gate item R5 FAILs; limits of other hosts are only shown.
 */
import type { Finding } from '../diagnostics/index.js';
import { type HostLimits, hostLimits } from '../model/host-limits.js';
import { searchSurface } from '../model/search.js';
import type { ServerModel, ToolModel } from '../model/types.js';
import { defaultTools, defaultToolsets } from '../model/toolset.js';
import { finding } from './lint-input.js';
import { type Memo, noMemo } from '../util/memo.js';
import { type PrunedSchema, prunedSchemas } from './pruned.js';
import {
  type Cost,
  lineFrameBytes,
  listCost,
  pageByteBudget,
  pageStarts,
  type SchemaCost,
  schemaCosts,
  type ToolCost,
  toolCosts,
  utf8Length,
} from './tokens.js';

/** One limit of one host that the default surface breaks. */
export interface HostBreak {
  readonly host: string;
  /** Named in `review.hosts`: the break fails the gate. */
  readonly target: boolean;
  readonly message: string;
  readonly pointer: string;
}

/** What the review found about context cost. */
export interface ContextReview {
  /** Every tool's own cost, in model order. */
  readonly tools: readonly ToolCost[];
  /** The tools listed by default, by name. */
  readonly listed: readonly string[];
  /** What the default `tools/list` costs (with `discovery: search`, the surface's), and with every tool listed. */
  readonly cost: Cost;
  readonly all: Cost;
  /** The default tools listed as plain tools (equal to `cost` without search). */
  readonly plain: Cost;
  /** With `discovery: search`: `search_tools` and `call_tool`, measured, listed instead of the tools; else null. */
  readonly surface: readonly ToolCost[] | null;
  /** Each toolset's own tools, by toolset name in model order. */
  readonly toolsets: readonly (Cost & { readonly name: string; readonly default: boolean; readonly count: number })[];
  readonly breaks: readonly HostBreak[];
  /** The heaviest input and output schemas (at most 5), heaviest first. */
  readonly schemas: readonly SchemaCost[];
  /** The tool schemas import pruned to fit a client, in model order. */
  readonly pruned: readonly PrunedSchema[];
  readonly findings: readonly Finding[];
}

/** How many of the heaviest tools a finding names. */
const named = 5;

/** Costs, host limits and the findings that fail R5. */
export function reviewContext(model: ServerModel, memo: Memo = noMemo): ContextReview {
  // Every size measured once: a tool's listing holds its schemas, the very objects schemaCosts measures.
  const sizes = new WeakMap<object, number>();
  const tools = toolCosts(model, sizes, memo);
  const listedTools = defaultTools(model);
  const listedNames = new Set(listedTools.map((t) => t.name));
  const listedCosts = tools.filter((t) => listedNames.has(t.name));
  const plain = listCost(listedCosts);
  const surface =
    model.discovery === 'search'
      ? searchSurface(model).map((tool) => {
          const bytes = utf8Length(JSON.stringify(tool));
          return { name: tool.name, bytes, tokens: Math.ceil(bytes / 4) };
        })
      : null;
  const cost = surface === null ? plain : listCost(surface);
  // With search, hosts see the two tools of the surface; the tools are named only in call_tool's arguments.
  const shown = surface === null ? listedTools : surface.map((t) => ({ name: t.name, pointer: '/discovery' }));
  const breaks = hostLimits.flatMap((host) => hostBreaks(model, host, shown, surface ?? listedCosts));
  const findings: Finding[] = [];
  // Listed as they are, the default tools must also keep every limit of the hosts the manifest names: advice to
  // drop search that breaks one of them would turn this warning into a gate FAIL.
  const fitsTargets = () =>
    hostLimits.every(
      (host) => !model.review.hosts.includes(host.id) || hostBreaks(model, host, listedTools, listedCosts).length === 0,
    );
  if (
    surface !== null &&
    plain.tokens <= model.review.maxListTokens &&
    listedTools.length <= model.lint.maxTools &&
    fitsTargets()
  )
    findings.push(
      finding(
        'lint-search-small',
        '/discovery',
        `discovery: search serves a small design: its ${listedTools.length} default tools cost about ` +
          `${plain.tokens} tokens listed as they are, within review.maxListTokens (${model.review.maxListTokens}) ` +
          `and lint.maxTools (${model.lint.maxTools})` +
          (model.review.hosts.length === 0
            ? ''
            : `, and every limit of review.hosts (${model.review.hosts.join(', ')})`),
        'remove discovery: search: a model chooses better among a few listed tools than through a search round trip',
      ),
    );
  if (cost.tokens > model.review.maxListTokens) findings.push(overBudget(model, cost, surface, listedCosts));
  for (const t of heaviestFirst(tools).filter((c) => c.bytes > pageByteBudget)) {
    const tool = model.tools.find((m) => m.name === t.name);
    findings.push(
      finding(
        'lint-tool-too-large',
        tool?.pointer ?? '/tools',
        `tool ${t.name} alone is ${t.bytes} bytes in tools/list, more than a page's ${pageByteBudget}: it has a ` +
          'page of its own, and a client with a small buffer may not read it',
        'trim its input and output schemas (re-import to prune them, or name only the members a model needs)',
      ),
    );
  }
  for (const b of breaks)
    if (b.target)
      findings.push(
        finding(
          'lint-host-limit',
          b.pointer,
          b.message,
          'select fewer tools by default with toolsets:, rename the tools named, or lower pagination.pageSize',
        ),
      );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const chosen = defaultToolsets(model);
  const toolsets = model.toolsets.map((set) => ({
    name: set.name,
    default: chosen.includes(set.name),
    count: set.tools.length,
    ...listCost(set.tools.map((name) => byName.get(name)).filter((t) => t !== undefined)),
  }));
  const schemas = schemaCosts(model, sizes, memo).slice(0, named);
  const pruned = prunedSchemas(model, memo);
  return {
    tools,
    listed: [...listedNames],
    cost,
    all: listCost(tools),
    plain,
    surface,
    toolsets,
    breaks,
    schemas,
    pruned,
    findings,
  };
}

/**
 * `lint-list-too-large`: what tools/list holds past the budget. With search that is `search_tools` and `call_tool`,
 * not the tools they reach, so the message names those two and the fix is not to search.
 */
function overBudget(model: ServerModel, cost: Cost, surface: readonly ToolCost[] | null, listed: readonly ToolCost[]) {
  const over = `more than review.maxListTokens (${model.review.maxListTokens})`;
  if (surface !== null)
    return finding(
      'lint-list-too-large',
      '/discovery',
      `the default tools/list costs about ${cost.tokens} tokens (discovery: search: ` +
        `${surface.map((t) => `${t.name} ${t.tokens}`).join(', ')}), ${over}`,
      `search_tools and call_tool are all tools/list sends: raise review.maxListTokens to at least ${cost.tokens}`,
    );
  const heaviest = heaviestFirst(listed).slice(0, named);
  return finding(
    'lint-list-too-large',
    '/tools',
    `the default tools/list costs about ${cost.tokens} tokens (${listed.length} tools), ${over}; heaviest: ` +
      heaviest.map((t) => `${t.name} (${t.tokens})`).join(', '),
    'group tools in toolsets: with a small default: true selection, trim the descriptions and schemas of the ' +
      'heaviest tools, or serve a large API through search; raise review.maxListTokens only on purpose',
  );
}

/** Heaviest first; equal costs by name, so the order never depends on anything else. */
export function heaviestFirst(tools: readonly ToolCost[]): ToolCost[] {
  return [...tools].sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function hostBreaks(
  model: ServerModel,
  host: HostLimits,
  tools: readonly Pick<ToolModel, 'name' | 'pointer'>[],
  costs: readonly ToolCost[],
): HostBreak[] {
  const target = model.review.hosts.includes(host.id);
  const out: HostBreak[] = [];
  const add = (message: string, pointer: string) =>
    out.push({ host: host.id, target, message: `${host.name} (${host.id}): ${message}`, pointer });
  if (host.maxTools !== null && tools.length > host.maxTools)
    add(`the default surface lists ${tools.length} tools, more than the ${host.maxTools} it takes`, '/tools');
  const server = model.server.name;
  const pattern = host.namePattern === null ? null : new RegExp(host.namePattern);
  const badNames = tools.filter((t) => {
    const length = t.name.length + (host.nameWithServer ? server.length : 0);
    return (host.maxNameLength !== null && length > host.maxNameLength) || (pattern !== null && !pattern.test(t.name));
  });
  const first = badNames[0];
  if (first !== undefined) {
    const rule = [
      host.maxNameLength === null
        ? ''
        : `at most ${host.maxNameLength} characters${host.nameWithServer ? ' with the server name' : ''}`,
      host.namePattern === null ? '' : `matching ${host.namePattern}`,
    ]
      .filter((r) => r !== '')
      .join(', ');
    const shown = badNames.slice(0, named).map((t) => t.name);
    const more = badNames.length > named ? ` and ${badNames.length - named} more` : '';
    add(`tool names must be ${rule}: ${shown.join(', ')}${more}`, first.pointer);
  }
  if (host.maxPageBytes !== null) {
    const starts = pageStarts(costs, model.pagination.pageSize);
    for (const [i, start] of starts.entries()) {
      const page = listCost(costs.slice(start, starts[i + 1] ?? costs.length));
      // The client's limit is on the line that carries the page, envelope included.
      if (page.bytes + lineFrameBytes <= host.maxPageBytes) continue;
      add(
        `a tools/list page is ${page.bytes} bytes, and its response line up to ${page.bytes + lineFrameBytes}: ` +
          `more than the ${host.maxPageBytes} its client reads`,
        '/tools',
      );
      break;
    }
  }
  return out;
}
