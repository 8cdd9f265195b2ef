/**
 * How much of the component graph one tool schema may carry. A tool schema holds, as `$defs`, every component it
 * reaches; on a large API (Stripe) one output reaches hundreds of components, a single tool weighs more than half a
 * megabyte and the first tools/list page more than the 10 MiB a stdio client buffers. Past its budget, a schema's
 * references to the components that reach the most are replaced by pruned objects (see {@link prunedSchema}).
 */
import { compareText } from '../util/compare.js';
import { isRecord } from '../util/guards.js';
import type { DraftNote } from './draft.js';

/** At most `defs` components under `$defs`, and none more than `depth` references away from the root. */
export interface SchemaBudget {
  readonly defs: number;
  readonly depth: number;
}

/**
 * An output is only validated, never shown to the model as something to fill in, so its budget is the stricter:
 * 64 components cover every response of the GitHub and Kubernetes descriptions without pruning, and 12 levels of
 * nested objects are more than any of them uses outside recursion.
 */
export const outputBudget: SchemaBudget = { defs: 64, depth: 12 };
/** An input is what the model writes: pruned only when it could not hold it anyway (4 times the output budget). */
export const inputBudget: SchemaBudget = { defs: 256, depth: 32 };

/** The components one component reaches, itself included, and how many references deep the farthest is (1: itself). */
export interface Reach {
  readonly names: ReadonlySet<string>;
  readonly depth: number;
}

/** The component graph: each component's direct references, or null for one the document lacks. */
export type Edges = (name: string) => ReadonlySet<string> | null;

/** What `name` reaches, breadth first; remembered in `cache`, since many tools reach the same components. */
export function reachOf(name: string, edges: Edges, cache: Map<string, Reach>): Reach {
  const known = cache.get(name);
  if (known !== undefined) return known;
  const names = new Set<string>();
  let level = [name];
  let depth = 0;
  while (level.length > 0) {
    const next: string[] = [];
    let added = false;
    for (const n of level) {
      const out = names.has(n) ? null : edges(n);
      if (out === null) continue;
      names.add(n);
      added = true;
      for (const m of out) if (!names.has(m)) next.push(m);
    }
    if (added) depth += 1;
    level = next;
  }
  const reach = { names, depth };
  cache.set(name, reach);
  return reach;
}

/**
 * The direct references of a root (`direct`) to cut so that what is left fits `budget`: those that reach the most
 * first (then the deepest, then by name), until the union of the rest fits. Sorted by name; empty when all fit.
 */
export function overBudget(
  direct: ReadonlySet<string>,
  budget: SchemaBudget,
  edges: Edges,
  cache: Map<string, Reach>,
): string[] {
  const kept = [...direct]
    .map((name) => ({ name, reach: reachOf(name, edges, cache) }))
    .sort(
      (a, b) => b.reach.names.size - a.reach.names.size || b.reach.depth - a.reach.depth || compareText(a.name, b.name),
    );
  const fits = (): boolean => {
    const union = new Set<string>();
    for (const k of kept) {
      if (k.reach.depth > budget.depth) return false;
      for (const n of k.reach.names) union.add(n);
    }
    return union.size <= budget.defs;
  };
  const cut: string[] = [];
  while (kept.length > 0 && !fits()) cut.push((kept.shift() as { name: string }).name);
  return cut.sort(compareText);
}

/**
 * What stands for a cut component: an object that accepts any members (an answer is still checked to be an
 * object), or any value when the component is not an object (a union, a string), so no valid answer is refused.
 */
export function prunedSchema(name: string, schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const description = `A ${name} object (schema pruned: see DESIGN.md)`;
  const objectish = schema.type === 'object' || (schema.type === undefined && isRecord(schema.properties));
  return objectish ? { type: 'object', description, additionalProperties: true } : { description };
}

/** `root` with its references to the components `cut` names (`find` gives each one's reference and schema) pruned. */
export function pruneRefs(
  root: Record<string, unknown>,
  cut: readonly string[],
  find: (name: string) => { ref: string; schema: Readonly<Record<string, unknown>> } | null,
): Record<string, unknown> {
  if (cut.length === 0) return root;
  const replace = new Map<string, Record<string, unknown>>();
  for (const name of cut) {
    const found = find(name);
    if (found !== null) replace.set(found.ref, prunedSchema(name, found.schema));
  }
  return replaceRefs(root, replace) as Record<string, unknown>;
}

/** `schema` with each `{ $ref }` that `replace` names replaced by its value; everything else copied as it is. */
export function replaceRefs(schema: unknown, replace: ReadonlyMap<string, Record<string, unknown>>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => replaceRefs(item, replace));
  if (!isRecord(schema)) return schema;
  const ref = schema.$ref;
  if (typeof ref === 'string' && Object.keys(schema).length === 1) {
    const value = replace.get(ref);
    if (value !== undefined) return structuredClone(value);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, replaceRefs(v, replace)]));
}

/** The draft note on each pruned schema of tool `name` (at `at`), and the import report's flag. */
export function prunedReview(
  name: string,
  at: readonly string[],
  found: { readonly prunedInput?: readonly string[]; readonly prunedOutput?: readonly string[] },
): { notes: DraftNote[]; flags: string[] } {
  const notes: DraftNote[] = [];
  const flags: string[] = [];
  for (const [part, cut, budget] of [
    ['input', found.prunedInput ?? [], inputBudget],
    ['output', found.prunedOutput ?? [], outputBudget],
  ] as const) {
    if (cut.length === 0) continue;
    const limit = `at most ${budget.defs} shared schemas, ${budget.depth} references deep`;
    notes.push({
      path: [...at, part],
      text:
        `TODO schema: the ${part} reached more of the spec's components than a client holds (${limit}); ` +
        `${cut.join(', ')} became open objects; name the members a model needs`,
    });
    flags.push(`tool "${name}": ${part} schema pruned to fit ${limit} (${cut.join(', ')})`);
  }
  return { notes, flags };
}
