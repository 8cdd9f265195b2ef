/**
 * The ranking behind `search_tools` (search.gen.ts): BM25F over a tool's name, title, tags, description and
 * parameters (a body's fields and the values an enum allows included), verb synonyms read in a task's first word,
 * concepts read anywhere, and bonuses for the tool whose name says the task's action and its object. Pure: it reads
 * tools and a query, nothing else.
 */
import type { ToolSpec } from './spec.gen.js';

/**
 * Verbs a task is said with, each group meaning one action (its first verb, as APIs name it); a query word also
 * matches the others (`weightOf`). "set up" is read as one word (`terms`).
 */
const verbGroups = [
  'create add new make open post insert file start register store publish setup enable activate give grant',
  'delete remove destroy erase drop clear discard unset disable deactivate revoke',
  'list all enumerate browse index',
  // Closing and reopening change a thing's state: APIs do it with an update.
  'update edit modify change set patch rename replace close reopen',
  'get fetch read show view retrieve see look describe inspect details',
  'search find query lookup filter',
  'cancel stop abort halt',
  'send post deliver publish',
  'download export fetch',
  'upload import attach',
  'check verify test validate',
].map((group) => group.split(' '));

/** Words that mean one thing wherever a task says them (not actions): a word also matches the others. */
const wordGroups = [
  // The caller's own things: APIs say "authenticated user", "current user" or "me" where people say "my".
  'authenticated my me mine own current',
  'latest newest recent last',
  // What is left of a quota is its limit: "how many calls do I have left".
  'limit quota remaining left throttle',
  'reaction emoji thumbs upvote',
  'permission access role',
  'member everyone everybody people',
  // Source control: a branch is a ref.
  'ref branch',
].map((group) => group.split(' '));

/** Short forms (as stems) read as the words they stand for, at full weight. */
const shortForms: Readonly<Record<string, readonly string[]>> = {
  repo: ['repository'],
  org: ['organization'],
  pr: ['pull', 'request'],
};

/**
 * What a synonym's match counts: APIs name actions with the first verb of a group (create, delete, list, update, get,
 * ...), so it counts more than the others, which match only where an API chose that word.
 */
const weightOf = (synonym: string): number => (heads.has(synonym) ? 0.7 : 0.35);

/** What doing the task's action, and naming its object, multiply a tool's score by. */
const actionBonus = 1.3;
const objectBonus = 0.5;

/** Words that say nothing about which tool a task needs. */
const stopwords = new Set(
  (
    'a an the to of for in on at by with from and or i is are be been this that it its as into your you we our ' +
    'us can could do does how what which who whom want would like please some any there their them he she his her ' +
    'via using use so if then than also just about has have had many much'
  ).split(' '),
);

/** A task that asks a question ("is main protected?", "who starred it?") asks to read: get, list or search. */
const question = /^\W*(is|are|was|were|has|have|had|does|do|did|who|what|which|where|when|why|how|can)\b/i;

/**
 * A task without the values it names: quoted text, `owner/repo` and paths, and versions say which thing to act on,
 * not which tool acts ("acme/site" is no site, "facebook/react" no reaction). A URL, an email address and a file
 * name are read as the kind of thing they are.
 */
export function withoutValues(task: string): string {
  return task
    .replace(/\bhttps?:\/\/\S+/g, ' url ')
    .replace(/(^|\s)(["'\u2018\u201c])[^"'\u2019\u201d]*["'\u2019\u201d](?=$|[\s.,;:!?)])/g, ' ')
    .replace(/\S+@\S+/g, ' email ')
    .replace(/[\w.-]+(\/[\w.-]+)+/g, ' ')
    .replace(/\bv?\d+(\.\d+)+\b/g, ' ')
    .replace(/\b[\w-]+\.[a-z]{1,5}\b/gi, ' file ');
}

/** The stems of the words seen, up to a bound: an index reads the same words many times. */
const stems = new Map<string, string>();

/**
 * A word's stem: plural, -ing, -ed and -ion endings and a final e dropped, so "created", "creates", "creation" and
 * "create" meet, as do "invite" and "invitation".
 */
export function stem(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const bare =
    w.length > 5 && w.endsWith('ing') ? w.slice(0, -3) : w.length > 4 && w.endsWith('ed') ? w.slice(0, -2) : '';
  if (bare !== '') w = bare.length >= 5 && /([^aeiouylsz])\1$/.test(bare) ? bare.slice(0, -1) : bare;
  // What an action makes: "invitation", "protection" and "deletion" meet "invite", "protect" and "delete".
  if (w.length >= 10 && w.endsWith('ation')) w = w.slice(0, -5);
  else if (w.length >= 7 && /[st]ion$/.test(w)) w = w.slice(0, -3);
  // Who does or receives it: "reviewer" and "assignee" meet "review" and "assign".
  if (w.length >= 7 && /(er|ee)$/.test(w)) w = w.slice(0, -2);
  const result = w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
  if (stems.size < 100_000) stems.set(word, result);
  return result;
}

/** The words of `text`: split at case changes and at anything but letters and digits, lower-cased. */
function words(text: string): string[] {
  return (
    text
      .replace(/https?:\/\/\S*/g, ' ')
      .replace(/\bset[\s-]+up\b/gi, 'setup')
      // A plural acronym ("PRs", "URLs") is the acronym, not a case change before "s".
      .replace(/\b([A-Z]{2,})s\b/g, '$1')
      .replace(/([a-z\d])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z\d]+/)
  );
}

/** The stems of `text`, stopwords, numbers and commit hashes out, short forms read as the words they stand for. */
export function terms(text: string): string[] {
  const found: string[] = [];
  for (const word of words(text)) {
    // Numbers and commit hashes are values a task names, not words a tool is described with.
    if (word.length < 2 || stopwords.has(word) || /^\d+$|^(?=.*\d)[a-f\d]{7,40}$/.test(word)) continue;
    const own = stem(word);
    const long = shortForms[own];
    if (long === undefined) found.push(own);
    else for (const part of long) found.push(stem(part));
  }
  return found;
}

/** Each stem's synonyms, from both kinds of groups, and the group it counts in (its first group's first word). */
const synonyms = new Map<string, Set<string>>();
const groupOf = new Map<string, string>();
/** The groups of actions, read with synonyms only in a task's first word; `wordGroups` are read anywhere. */
const verbHeads = new Set(verbGroups.map((group) => stem(group[0] ?? '')));
const heads = new Set([...verbGroups, ...wordGroups].map((group) => stem(group[0] ?? '')));
const reading = ['get', 'list', 'search'];
for (const group of [...verbGroups, ...wordGroups])
  for (const word of group) {
    const own = stem(word);
    const known = synonyms.get(own) ?? new Set<string>();
    for (const other of group) if (stem(other) !== own) known.add(stem(other));
    synonyms.set(own, known);
    if (!groupOf.has(own)) groupOf.set(own, stem(group[0] ?? word));
  }

/** The action a stem says: its verb group's first verb, or itself. */
const actionOf = (term: string): string => {
  const group = groupOf.get(term);
  return group !== undefined && verbHeads.has(group) ? group : term;
};

/** One searchable tool: what its name says it does and to what. */
interface Document {
  readonly name: string;
  /** The name's actions, as their verb group's first verb: its first word, and one after "or" (`create_or_update`). */
  readonly actions: readonly string[];
  /** The other words of its name: what it acts on. */
  readonly object: readonly string[];
}

/** The weight of each field of a tool (BM25F: each field's length is normalized on its own, then weighted). */
const fieldWeights = [2, 3, 2, 0.5, 0.5, 0.25] as const; // name, title, tags, description, parameters, their text

/** What the index reads of a tool. */
export type Searchable = Pick<ToolSpec, 'name' | 'listing' | 'inputSchema'> & {
  readonly tags: readonly string[];
};

type Schema = { properties?: Record<string, Schema>; anyOf?: Schema[]; oneOf?: Schema[] } & {
  $ref?: string;
  description?: unknown;
  enum?: unknown[];
};

/** The parameters' names, and their descriptions and allowed values; a body's fields too (one level down). */
function parameters(tool: Searchable): string[] {
  const root = tool.inputSchema as Schema & { $defs?: Record<string, Schema> };
  const names: string[] = [];
  const texts: string[] = [];
  const visit = (schema: Schema | undefined, depth: number): void => {
    const own = schema?.$ref?.startsWith('#/$defs/') ? root.$defs?.[schema.$ref.slice(8)] : schema;
    for (const one of [own, ...(own?.anyOf ?? []), ...(own?.oneOf ?? [])])
      for (const [name, property] of Object.entries(one?.properties ?? {})) {
        names.push(name);
        if (typeof property?.description === 'string') texts.push(property.description);
        for (const value of property?.enum ?? []) if (typeof value === 'string') texts.push(value);
        if (depth === 0) visit(property, 1);
      }
  };
  visit(root, 0);
  return [names.join(' '), texts.join(' ')];
}

/** BM25F (Okapi BM25 over weighted fields) over a fixed set of tools. */
export class ToolIndex {
  private readonly documents: readonly Document[];
  /** Each stem's tools (their positions) and its score in each, side by side. */
  private readonly postings = new Map<string, { readonly docs: number[]; readonly scores: number[] }>();

  /** `b` 0.5, not the usual 0.75: a long description or name is the API's way of saying more, not noise. */
  constructor(tools: readonly Searchable[], k1 = 1.2, b = 0.5) {
    const fields = tools.map((t) =>
      [t.name, t.listing.title ?? '', t.tags.join(' '), t.listing.description, ...parameters(t)].map(terms),
    );
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
    // verb later on is a plain word ("the open pull requests"). A question asks to read.
    const first = words[0] ?? '';
    const action = groupOf.get(first);
    const wanted = verbHeads.has(actionOf(first)) || !question.test(query) ? [actionOf(first)] : [first, ...reading];
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
