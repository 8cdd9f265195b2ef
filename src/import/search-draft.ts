/**
 * The draft that serves its tools through search (`discovery: search`) because, listed as tools, they would cost
 * more than the review's budget. The review of the written draft decides (`context.plain`, which it counts with
 * or without search); `looksOverBudget` only picks which draft to write and review first, so a large API is
 * rendered and reviewed once instead of twice.
 */
import { manifestDefaults } from '../model/defaults.js';
import type { Draft } from './draft.js';

/** The draft's `review.maxListTokens`, or the default the review applies. */
export function draftBudget(draft: Draft): number {
  const review = draft.data.review as { maxListTokens?: unknown } | undefined;
  const own = review?.maxListTokens;
  return typeof own === 'number' ? own : manifestDefaults.maxListTokens;
}

/**
 * True when the tools' names, titles, descriptions and inputs alone, as compact JSON, are past `budget` tokens
 * (bytes / 4, the review's estimate). tools/list sends at least that much of each tool, so the search draft is
 * the likely answer; a wrong guess costs a second render, never a wrong draft.
 */
export function looksOverBudget(draft: Draft, budget: number): boolean {
  const tools = draft.data.tools;
  if (tools === null || typeof tools !== 'object') return false;
  let length = 0;
  for (const [name, tool] of Object.entries(tools as Record<string, Record<string, unknown>>)) {
    length += name.length;
    for (const key of ['title', 'description', 'input'])
      if (tool[key] !== undefined) length += JSON.stringify(tool[key]).length;
    if (length / 4 > budget) return true;
  }
  return false;
}

/** How many tools the draft has. */
function toolCount(draft: Draft): number {
  return Object.keys((draft.data.tools as Record<string, unknown> | undefined) ?? {}).length;
}

/** The draft with `discovery` after its upstream, before its toolsets and tools. */
export function withDiscovery(draft: Draft, discovery: unknown): Draft {
  const { mcpGen, server, config, upstream, ...rest } = draft.data;
  return { ...draft, data: { mcpGen, server, config, upstream, discovery, ...rest } };
}

/**
 * The draft with `discovery: search` and a note that says why. The note gives the budget, not the count: the count
 * changes with every description the spec or the user edits, and `check` prints it.
 */
export function searchDraft(draft: Draft, budget: number): Draft {
  const count = toolCount(draft);
  const why =
    `Listed as tools, the ${count} tools would cost more than review.maxListTokens (${budget}) in tools/list ` +
    '(mcp-gen check counts them): tools/list serves search_tools and call_tool instead';
  return {
    ...withDiscovery(draft, 'search'),
    notes: [
      ...draft.notes,
      { path: ['discovery'], text: `${why}; choose a small default with toolsets, then remove this line to list them` },
    ],
  };
}

/** The flag a reviewer reads after the import of a search draft, with the cost its review counted. */
export function searchFlag(draft: Draft, listed: { tokens: number; budget: number }): Draft {
  const count = toolCount(draft);
  const why =
    `Listed as tools, the ${count} tools cost about ${listed.tokens} tokens in tools/list, more than ` +
    `review.maxListTokens (${listed.budget}): tools/list serves search_tools and call_tool instead`;
  return { ...draft, flags: [...draft.flags, `${why} (discovery: search)`] };
}
