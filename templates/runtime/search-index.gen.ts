/**
 * The ranking behind `search_tools` (search.gen.ts): BM25F over a tool's name, title, tags, description and
 * top-level parameters, verb synonyms read in a task's first word, and a bonus for the tool whose name says the
 * task's action. Pure: it reads tools and a query, nothing else.
 */
import type { ToolSpec } from './spec.gen.js';

/** Verbs a task is said with, each group meaning one action; a query word also matches the others (`weightOf`). */
const verbGroups: readonly (readonly string[])[] = [
  // "set up" is read as one word (`terms`).
  ['create', 'add', 'new', 'make', 'open', 'post', 'insert', 'file', 'start', 'register', 'store', 'publish', 'setup'],
  ['delete', 'remove', 'destroy', 'erase', 'drop', 'clear', 'discard', 'unset'],
  ['list', 'all', 'enumerate', 'browse', 'index'],
  // Closing and reopening change a thing's state: APIs do it with an update.
  ['update', 'edit', 'modify', 'change', 'set', 'patch', 'rename', 'replace', 'close', 'reopen'],
  ['get', 'fetch', 'read', 'show', 'view', 'retrieve', 'see', 'look', 'describe', 'inspect', 'details'],
  ['search', 'find', 'query', 'lookup', 'filter'],
  ['cancel', 'stop', 'abort', 'halt'],
  ['send', 'post', 'deliver', 'publish'],
  ['download', 'export', 'fetch'],
  ['upload', 'import', 'attach'],
  ['check', 'verify', 'test', 'validate'],
];

/** Words that mean one thing wherever a task says them (not actions): a word also matches the others. */
const wordGroups: readonly (readonly string[])[] = [
  // The caller's own things: APIs say "authenticated user", "current user" or "me" where people say "my".
  ['authenticated', 'my', 'me', 'mine', 'own', 'current'],
  ['latest', 'newest', 'recent', 'last'],
];

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

/** What doing the task's action multiplies a tool's score by. */
const actionBonus = 1.3;

/** Words that say nothing about which tool a task needs. */
const stopwords = new Set(
  (
    'a an the to of for in on at by with from and or i is are be been this that it its as into your you we our ' +
    'us can could do does how what which who whom want would like please some any there their them he she his her ' +
    'via using use so if then than also just about'
  ).split(' '),
);

/**
 * A task without the values it names: quoted text, emails, `owner/repo` and paths, file names and versions say which
 * thing to act on, not which tool acts ("acme/site" is no site, "facebook/react" no reaction).
 */
export function withoutValues(task: string): string {
  return task
    .replace(/(^|\s)(["'\u2018\u201c])[^"'\u2019\u201d]*["'\u2019\u201d](?=$|[\s.,;:!?)])/g, ' ')
    .replace(/\S+@\S+/g, ' ')
    .replace(/[\w.-]+(\/[\w.-]+)+/g, ' ')
    .replace(/\bv?\d+(\.\d+)+\b/g, ' ')
    .replace(/\b[\w-]+\.[a-z]{1,5}\b/gi, ' ');
}

/** A word's stem: plural, -ing and -ed endings and a final e dropped, so "created", "creates", "create" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const bare =
    w.length > 5 && w.endsWith('ing') ? w.slice(0, -3) : w.length > 4 && w.endsWith('ed') ? w.slice(0, -2) : '';
  if (bare !== '') w = bare.length >= 5 && /([^aeiouylsz])\1$/.test(bare) ? bare.slice(0, -1) : bare;
  // Who does or receives it: "reviewer" and "assignee" meet "review" and "assign".
  if (w.length >= 7 && /(er|ee)$/.test(w)) w = w.slice(0, -2);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** The stems of `text`: split at case changes and at anything but letters and digits, lower-cased, stopwords out. */
export function terms(text: string): string[] {
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
      // Numbers and commit hashes are values a task names, not words a tool is described with.
      .filter((word) => word.length > 1 && !stopwords.has(word) && !/^\d+$|^(?=.*\d)[a-f\d]{7,40}$/.test(word))
      .flatMap((word) => shortForms[stem(word)]?.map(stem) ?? [stem(word)])
  );
}

/** Each stem's synonyms, from `verbGroups`, and the group it counts in (its first group's first verb). */
const synonyms = new Map<string, Set<string>>();
const groupOf = new Map<string, string>();
/** The groups of actions, read with synonyms only in a task's first word; `wordGroups` are read anywhere. */
const verbHeads = new Set(verbGroups.map((group) => stem(group[0] ?? '')));
const heads = new Set([...verbGroups, ...wordGroups].map((group) => stem(group[0] ?? '')));
for (const group of [...verbGroups, ...wordGroups])
  for (const word of group) {
    const own = stem(word);
    const known = synonyms.get(own) ?? new Set<string>();
    for (const other of group) if (stem(other) !== own) known.add(stem(other));
    synonyms.set(own, known);
    if (!groupOf.has(own)) groupOf.set(own, stem(group[0] ?? word));
  }

/** One searchable tool: each field's term counts and length, in `fieldWeights` order. */
interface Document {
  readonly name: string;
  /** The first word of the name, as its verb group's first verb when it has one (`add_` and `create_` meet). */
  readonly action: string | undefined;
  readonly fields: readonly { readonly counts: ReadonlyMap<string, number>; readonly length: number }[];
}

/** The weight of each field of a tool (BM25F: each field's length is normalized on its own, then weighted). */
const fieldWeights = [2, 3, 2, 0.5, 0.5, 0.25] as const; // name, title, tags, description, parameters, their text

/** What the index reads of a tool. */
export type Searchable = Pick<ToolSpec, 'name' | 'listing' | 'inputSchema'> & {
  readonly tags: readonly string[];
};

/** The fields of one tool, in `fieldWeights` order. */
function documentOf(tool: Searchable): Document {
  const properties = (tool.inputSchema.properties ?? {}) as Readonly<Record<string, { description?: unknown }>>;
  const texts = [
    tool.name,
    tool.listing.title ?? '',
    tool.tags.join(' '),
    tool.listing.description,
    Object.keys(properties).join(' '),
    Object.values(properties)
      .map((p) => (typeof p?.description === 'string' ? p.description : ''))
      .join(' '),
  ];
  const split = texts.map(terms);
  const fields = split.map((words) => {
    const counts = new Map<string, number>();
    for (const term of words) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { counts, length: words.length };
  });
  const first = split[0]?.[0];
  return { name: tool.name, action: first === undefined ? undefined : (groupOf.get(first) ?? first), fields };
}

/** BM25F (Okapi BM25 over weighted fields) over a fixed set of tools. */
export class ToolIndex {
  private readonly documents: readonly Document[];
  private readonly frequency = new Map<string, number>();
  private readonly averages: readonly number[];

  constructor(
    tools: readonly Searchable[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.documents = tools.map(documentOf);
    for (const doc of this.documents) {
      const seen = new Set(doc.fields.flatMap((field) => [...field.counts.keys()]));
      for (const term of seen) this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
    }
    this.averages = fieldWeights.map((_, i) => {
      const total = this.documents.reduce((sum, doc) => sum + (doc.fields[i]?.length ?? 0), 0);
      return this.documents.length === 0 || total === 0 ? 1 : total / this.documents.length;
    });
  }

  /** The names of the best `limit` matches of `query` among the tools `accept` keeps, best first (ties by name). */
  search(query: string, limit: number, accept: (name: string) => boolean = () => true): string[] {
    // Words of one verb group ("open a new issue") count once: the best of them, or of their synonyms.
    const groups = new Map<string, { words: Set<string>; others: Set<string> }>();
    const words = terms(withoutValues(query));
    // A task is said verb first ("close an issue"): only its first word is read as an action with synonyms; a
    // verb later on is a plain word ("the open pull requests").
    const action = groupOf.get(words[0] ?? '');
    const wanted = action ?? words[0];
    for (const word of words) {
      const of = groupOf.get(word);
      const read = of !== undefined && (of === action || !verbHeads.has(of));
      const key = read ? of : word;
      const group = groups.get(key) ?? { words: new Set<string>(), others: new Set<string>() };
      group.words.add(word);
      if (read) for (const other of synonyms.get(word) ?? []) group.others.add(other);
      groups.set(key, group);
    }
    const scored: { readonly name: string; readonly score: number }[] = [];
    for (const doc of this.documents) {
      if (!accept(doc.name)) continue;
      let score = 0;
      for (const { words, others } of groups.values()) {
        let best = 0;
        for (const word of words) best = Math.max(best, this.score(doc, word));
        for (const other of others)
          if (!words.has(other)) best = Math.max(best, weightOf(other) * this.score(doc, other));
        score += best;
      }
      // A name says its action first (list_, create_): a tool that does the task's action outranks its neighbours.
      if (score > 0) scored.push({ name: doc.name, score: doc.action === wanted ? score * actionBonus : score });
    }
    scored.sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    return scored.slice(0, limit).map((s) => s.name);
  }

  private score(doc: Document, term: string): number {
    let count = 0;
    doc.fields.forEach((field, i) => {
      const raw = field.counts.get(term) ?? 0;
      if (raw > 0)
        count += ((fieldWeights[i] ?? 0) * raw) / (1 - this.b + (this.b * field.length) / (this.averages[i] ?? 1));
    });
    if (count === 0) return 0;
    const n = this.documents.length;
    const df = this.frequency.get(term) ?? 0;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    return (idf * count * (this.k1 + 1)) / (count + this.k1);
  }
}
