/**
 * The ranking behind `search_tools` (search.gen.ts): BM25F over a tool's name, title, tags, description, parameters
 * (a body's fields included; each parameter with its description and the values an enum allows also counts as a
 * passage of its own) and the fields it answers with, the words of search-words.gen.ts, and bonuses for the tool
 * whose name says the task's action and its object. Pure: it reads tools and a query, nothing else.
 */
import type { ToolSpec } from './spec.gen.js';
import {
  actionOf,
  groupOf,
  question,
  reading,
  stem,
  synonyms,
  terms,
  verbHeads,
  weightOf,
  withoutValues,
  words,
  yesNo,
} from './search-words.gen.js';

/** What doing the task's action, and naming its object, multiply a tool's score by. */
const actionBonus = 1.3;
const objectBonus = 0.5;

/** One searchable tool: what its name says it does and to what. */
interface Document {
  readonly name: string;
  /** The name's actions, as their verb group's first verb: its first word, and one after "or" (`create_or_update`). */
  readonly actions: readonly string[];
  /** The other words of its name: what it acts on. */
  readonly object: readonly string[];
}

/**
 * The weight of each field of a tool (BM25F: each field's length is normalized on its own, then weighted): name,
 * title, tags, description, parameter names, and the names of the fields it answers with ("what's his bio" asks for
 * the tool that answers a `bio`).
 */
const fieldWeights = [2, 3, 2, 0.5, 0.25, 0.25] as const;
/**
 * A parameter's passage (its name, description and allowed values) counts on its own, the best one for each word: a
 * tool with thirty parameters is no less about the one a task names (update_repos and "archive") than a tool with two.
 */
const passageWeight = 0.5;

/** What the index reads of a tool. */
export type Searchable = Pick<ToolSpec, 'name' | 'listing' | 'inputSchema'> & {
  readonly tags: readonly string[];
  readonly outputSchema?: ToolSpec['outputSchema'];
};

type Schema = { properties?: Record<string, Schema>; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] } & {
  $ref?: string;
  description?: unknown;
  enum?: unknown[];
  items?: Schema;
};
type Root = Schema & { $defs?: Record<string, Schema> };

/** `schema`, or the `$defs` entry it refers to. */
const resolved = (root: Root, schema: Schema | undefined): Schema | undefined =>
  schema?.$ref?.startsWith('#/$defs/') ? root.$defs?.[schema.$ref.slice(8)] : schema;

/** The parameters' names, and each one's passage: its name, description and allowed values; a body's fields too. */
function parameters(tool: Searchable): { names: string; passages: string[] } {
  const root = tool.inputSchema as Root;
  const names: string[] = [];
  const passages: string[] = [];
  const visit = (schema: Schema | undefined, depth: number): void => {
    const own = resolved(root, schema);
    for (const one of [own, ...(own?.anyOf ?? []), ...(own?.oneOf ?? [])])
      for (const [name, property] of Object.entries(one?.properties ?? {})) {
        names.push(name);
        const text = typeof property?.description === 'string' ? property.description : '';
        const values = (property?.enum ?? []).filter((value) => typeof value === 'string');
        passages.push([name, text, ...values].join(' '));
        if (depth === 0) visit(property, 1);
      }
  };
  visit(root, 0);
  return { names: names.join(' '), passages };
}

/** The names of the fields a tool answers with: of the object, a list's items or a wrapped `result`, not deeper. */
function answers(tool: Searchable): string {
  const root = (tool.outputSchema ?? {}) as Root;
  const names: string[] = [];
  const seen = new Set<Schema>();
  const visit = (schema: Schema | undefined): void => {
    const own = resolved(root, schema);
    if (own === undefined || seen.has(own)) return;
    seen.add(own);
    for (const one of [...(own.anyOf ?? []), ...(own.oneOf ?? []), ...(own.allOf ?? [])]) visit(one);
    if (own.items !== undefined) visit(own.items);
    for (const [name, property] of Object.entries(own.properties ?? {}))
      if (name === 'result') visit(property);
      else names.push(name);
  };
  visit(root);
  return names.join(' ');
}

/** BM25F (Okapi BM25 over weighted fields) over a fixed set of tools. */
export class ToolIndex {
  private readonly documents: readonly Document[];
  /** Each stem's tools (their positions) and its score in each, side by side. */
  private readonly postings = new Map<string, { readonly docs: number[]; readonly scores: number[] }>();

  /** `b` 0.5, not the usual 0.75: a long description or name is the API's way of saying more, not noise. */
  constructor(tools: readonly Searchable[], k1 = 1.2, b = 0.5) {
    const read = tools.map(parameters);
    const fields = tools.map((t, doc) =>
      [t.name, t.listing.title ?? '', t.tags.join(' '), t.listing.description, read[doc]?.names ?? '', answers(t)].map(
        terms,
      ),
    );
    const passages = read.map(({ passages }) => passages.map(terms));
    const passageCount = passages.reduce((sum, own) => sum + own.length, 0);
    const passageAverage = passages.flat().reduce((sum, own) => sum + own.length, 0) / passageCount || 1;
    this.documents = tools.map((tool, doc) => {
      const said = words(tool.name).filter((word) => word !== '');
      const actions = said.flatMap((word, i) => (i === 0 || said[i - 1] === 'or' ? [actionOf(stem(word))] : []));
      const object = (fields[doc]?.[0] ?? []).filter((term) => !actions.includes(actionOf(term)));
      return { name: tool.name, actions, object };
    });
    const n = tools.length;
    const averages = fieldWeights.map((_, i) => fields.reduce((sum, f) => sum + (f[i]?.length ?? 0), 0) / n || 1);
    fields.forEach((split, doc) => {
      const weighted = new Map<string, number>();
      split.forEach((field, i) => {
        const weight = (fieldWeights[i] ?? 0) / (1 - b + (b * field.length) / (averages[i] ?? 1));
        for (const term of field) weighted.set(term, (weighted.get(term) ?? 0) + weight);
      });
      const best = new Map<string, number>();
      for (const passage of passages[doc] ?? []) {
        const weight = passageWeight / (1 - b + (b * passage.length) / passageAverage);
        const counts = new Map<string, number>();
        for (const term of passage) counts.set(term, (counts.get(term) ?? 0) + weight);
        for (const [term, count] of counts) best.set(term, Math.max(best.get(term) ?? 0, count));
      }
      for (const [term, count] of best) weighted.set(term, (weighted.get(term) ?? 0) + count);
      for (const [term, count] of weighted) {
        const posting = this.postings.get(term) ?? { docs: [], scores: [] };
        if (posting.docs.length === 0) this.postings.set(term, posting);
        posting.docs.push(doc);
        posting.scores.push((count * (k1 + 1)) / (count + k1));
      }
    });
    for (const { docs, scores } of this.postings.values()) {
      const idf = Math.log(1 + (n - docs.length + 0.5) / (docs.length + 0.5));
      for (let i = 0; i < scores.length; i++) scores[i] = (scores[i] ?? 0) * idf;
    }
  }

  /** The names of the best `limit` matches of `query` among the tools `accept` keeps, best first (ties by name). */
  search(query: string, limit: number, accept: (name: string) => boolean = () => true): string[] {
    const words = terms(withoutValues(query));
    // A task is said verb first ("close an issue"): only its first word is read as an action with synonyms; a
    // verb later on is a plain word ("the open pull requests"). A question asks to read, or to check.
    const first = words[0] ?? '';
    const action = groupOf.get(first);
    const asks = !verbHeads.has(actionOf(first)) && question.test(query);
    const wanted = !asks ? [actionOf(first)] : [first, ...reading, ...(yesNo.test(query) ? ['check'] : [])];
    // Words of one group ("open a new issue") count once: the best of them, or of their synonyms at `weightOf`.
    const groups = new Map<string, Map<string, number>>();
    for (const word of words) {
      const of = groupOf.get(word);
      const read = of !== undefined && (of === action || !verbHeads.has(of));
      const group = groups.get(read ? of : word) ?? new Map<string, number>();
      groups.set(read ? of : word, group.set(word, 1));
      for (const other of read ? (synonyms.get(word) ?? []) : [])
        group.set(other, Math.max(group.get(other) ?? 0, weightOf(other)));
    }
    const total = new Float64Array(this.documents.length);
    const matched = new Set<string>();
    for (const group of groups.values()) {
      const best = new Float64Array(total.length);
      for (const [term, weight] of group) {
        const { docs, scores } = this.postings.get(term) ?? { docs: [], scores: [] };
        if (docs.length > 0) matched.add(term);
        docs.forEach((doc, i) => {
          best[doc] = Math.max(best[doc] ?? 0, weight * (scores[i] ?? 0));
        });
      }
      best.forEach((score, doc) => {
        total[doc] = (total[doc] ?? 0) + score;
      });
    }
    const scored: { readonly name: string; readonly score: number }[] = [];
    this.documents.forEach(({ name, actions, object }, i) => {
      const score = total[i] ?? 0;
      if (score <= 0 || !accept(name)) return;
      // A name says its action first (list_, create_): a tool that does the task's action outranks its neighbours,
      // and one whose name is all about what the task names outranks one about something near it.
      const does = actions.some((a) => wanted.includes(a)) ? actionBonus : 1;
      const named = object.length === 0 ? 0 : object.filter((term) => matched.has(term)).length / object.length;
      scored.push({ name, score: score * does * (1 + objectBonus * named) });
    });
    scored.sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    return scored.slice(0, limit).map((s) => s.name);
  }
}
