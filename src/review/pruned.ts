/**
 * The schemas that import pruned to fit a client (src/import/schema-budget.ts): each pruned object names its
 * component in its description, `A <Component> object (schema pruned: see DESIGN.md)`, and DESIGN.md lists them
 * here, so a reviewer sees which answers are checked only as objects.
 */
import { wireTool } from '../model/toolset.js';
import type { ServerModel, ToolModel } from '../model/types.js';
import { compareText } from '../util/compare.js';
import { type Memo, noMemo } from '../util/memo.js';

/** One tool schema with pruned parts, and the components they stood for, sorted, each once. */
export interface PrunedSchema {
  readonly tool: string;
  readonly part: 'input' | 'output';
  readonly components: readonly string[];
}

const prunedText = /^A (.+) object \(schema pruned: see DESIGN\.md\)$/;

/** Every tool schema of `model` that holds a pruned object, in model order, input before output. */
export function prunedSchemas(model: ServerModel, memo: Memo = noMemo): PrunedSchema[] {
  return model.tools.flatMap((tool) => memo.recall('review.pruned', tool, prunedOf));
}

/** One tool's schemas with pruned parts: a function of the tool alone. */
function prunedOf(model: ToolModel): PrunedSchema[] {
  const tool = wireTool(model);
  const out: PrunedSchema[] = [];
  for (const [part, schema] of [
    ['input', tool.inputSchema],
    ['output', tool.outputSchema],
  ] as const) {
    const found = new Set<string>();
    collect(schema, found, new Set());
    if (found.size > 0) out.push({ tool: tool.name, part, components: [...found].sort(compareText) });
  }
  return out;
}

function collect(value: unknown, found: Set<string>, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found, seen);
    return;
  }
  const record = value as Record<string, unknown>;
  const match = typeof record.description === 'string' ? prunedText.exec(record.description) : null;
  if (match?.[1] !== undefined) found.add(match[1]);
  for (const item of Object.values(record)) collect(item, found, seen);
}
