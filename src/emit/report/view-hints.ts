import type { PromptModel, ResourceModel, ServerModel, ToolModel } from '../../model/types.js';
import { code } from '../shared/markdown.js';

// The hints DESIGN.md shows per primitive, and what it says about lists and completions from handlers (manifest
// `list: handler`, `complete`).

/** The hints cell of a tool in the primitive map: its annotations. */
export function toolHints(tool: ToolModel): string {
  const shown = Object.entries(tool.annotations).map(([k, v]) => `${k.replace('Hint', '')}=${String(v)}`);
  return shown.length === 0 ? 'defaults' : shown.join(', ');
}

const completedBy = (names: readonly string[] | undefined): string | null =>
  names === undefined ? null : `completions of ${names.join(', ')} from a handler`;

/** The hints cell of a resource in the primitive map. */
export function resourceHints(r: ResourceModel): string {
  return ['read-only', r.list && 'listed by a handler', completedBy(r.complete?.variables)].filter(Boolean).join('; ');
}

/** The hints cell of a prompt in the primitive map. */
export function promptHints(p: PromptModel): string {
  return [p.messages === null ? 'handler' : 'fixed messages', completedBy(p.complete?.arguments)]
    .filter(Boolean)
    .join('; ');
}

/** The order cell of resources/list: the fixed resources by name, then what each list handler returns (dynamic). */
export function listedOrder(model: ServerModel, names: (items: readonly { name: string }[]) => string): string {
  const listed = model.resources.filter((r) => r.list !== null);
  const fixed = names(model.resources.filter((r) => r.uri !== null));
  if (listed.length === 0) return fixed;
  const handlers = listed.map((r) => code(r.name)).join(', then of ');
  return `${fixed}, then the members the list handler of ${handlers} returns (dynamic, in its order)`;
}
