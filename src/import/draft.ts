import { Document, isMap, isPair, isScalar, type Node, type Pair } from 'yaml';
import { setOwn } from '../util/set-own.js';
import { isLargeDraft, renderFlowEntry } from './draft-flow.js';

/** A comment placed on the line(s) before a key of the draft; `path` [] is the file header. */
export interface DraftNote {
  readonly path: readonly string[];
  readonly text: string;
}

/** A manifest draft: its data, the TODOs a reviewer must settle, and what the import report flags. */
export interface Draft {
  readonly data: Readonly<Record<string, unknown>>;
  readonly notes: readonly DraftNote[];
  /** One line per thing a reviewer must decide, printed after the draft is written. */
  readonly flags: readonly string[];
  /** What the import could not use as given (a filter that matched nothing, a malformed extension). */
  readonly warnings?: readonly string[];
  /** Operations the spec's own `x-mcp` or `x-speakeasy-mcp` left out. */
  readonly dropped?: number;
  /** How many drafted tools each of the spec's operation tags has, as `--include tag:` names it. */
  readonly operationTags?: ReadonlyMap<string, number>;
}

/**
 * The note above an entry's first title or description copied from `origin` (none when the entry has
 * neither): it is someone else's text, which models read and DESIGN.md and README.md show.
 */
export function importedTextNote(entry: Readonly<Record<string, unknown>>, at: readonly string[], origin: string) {
  const key = ['title', 'description', 'instructions'].find((k) => typeof entry[k] === 'string');
  return key === undefined
    ? []
    : [{ path: [...at, key], text: `imported text from ${origin}: untrusted, read it before publishing` }];
}

/** The header note and the flag of a draft whose text came from `origin`. */
export function untrustedDraftNotice(origin: string): { note: string; flag: string } {
  return {
    note:
      `UNTRUSTED TEXT: every title and description below was copied from ${origin}; a model reads them and ` +
      'DESIGN.md and README.md show them. Read each one (marked "imported text") before publishing.',
    flag: `titles and descriptions are ${origin}'s words, not yours: read each one (marked "imported text")`,
  };
}

/**
 * The draft as YAML text, built with the `yaml` document API: every value
 * from a server or a spec is a node the library quotes itself, never text
 * spliced into the file. Notes become `#` comments before their key; a note's
 * text is ours, and any foreign value inside it was passed through `quote`.
 *
 * Each top-level key is its own document, and each entry of a section (a tool, a schema) too, indented under
 * its section's key: block YAML is the same text whichever document holds an entry, and a document per entry
 * lets the library's nodes die young instead of holding all of a large draft at once. A large draft's schemas are
 * JSON (draft-flow.ts).
 */
export function renderDraft(draft: Draft): string {
  const keys = Object.keys(draft.data);
  const flow = isLargeDraft(draft.data);
  if (keys.length === 0) return renderDocument(draft.data, draft.notes);
  const parts: string[] = [];
  keys.forEach((key, i) => {
    const value = draft.data[key];
    const notes = draft.notes.filter((n) => n.path[0] === key || (i === 0 && n.path.length === 0));
    if (i === 0 || !splitSections.has(key) || !isPlainRecord(value) || notes.some((n) => n.path.length === 1)) {
      parts.push(renderDocument({ [key]: value }, notes));
      return;
    }
    parts.push(`${key}:\n`);
    for (const entry of Object.keys(value)) {
      const entryNotes = notes.filter((n) => n.path[1] === entry).map((n) => ({ ...n, path: n.path.slice(1) }));
      const flowed = flow ? renderFlowEntry(key, entry, value[entry], entryNotes, renderDocument) : null;
      parts.push(indentLines(flowed ?? renderDocument({ [entry]: value[entry] }, entryNotes)));
    }
  });
  return parts.join('');
}

/** Sections rendered entry by entry: manifest keys, written plain, whose entries are many. */
const splitSections = new Set(['schemas', 'tools', 'resources', 'prompts']);

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}

/**
 * `text` one level deeper. Empty lines stay empty, as the library writes them at any depth; a line of spaces
 * (a block scalar's leading blank line) is at the value's indentation, which is never empty in an entry.
 */
function indentLines(text: string): string {
  // Split at \n alone: the library breaks lines only there, and a value's \r or U+2028 is not a line of the file.
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}

/** `data` as one YAML document, with `notes` as comments (`path` relative to `data`). */
function renderDocument(data: Readonly<Record<string, unknown>>, notes: readonly DraftNote[]): string {
  // No anchors: a draft is edited by hand, and an edit to one tool's schema must not change another's.
  const doc = new Document(data, { aliasDuplicateObjects: false });
  const header = notes.filter((n) => n.path.length === 0).map((n) => commentLine(n.text));
  if (header.length > 0) doc.commentBefore = header.join('\n');
  const keys = new Map<Node, Map<unknown, Pair>>();
  for (const note of notes) {
    if (note.path.length === 0) continue;
    const pair = findPair(doc, note.path, keys);
    if (pair === null || !isScalar(pair.key)) continue;
    const key = pair.key;
    key.commentBefore =
      key.commentBefore === undefined || key.commentBefore === null
        ? commentLine(note.text)
        : `${key.commentBefore}\n${commentLine(note.text)}`;
  }
  return doc.toString({ lineWidth: 0, indent: 2 });
}

/** One comment: a leading space after `#`, and no line breaks a foreign value could smuggle in. */
function commentLine(text: string): string {
  return ` ${text.replace(/[\r\n\u2028\u2029]+/g, ' ')}`;
}

/** The pair at `path`; `keys` indexes each mapping's pairs once (GitHub's draft: 1,223 tools, notes on each). */
function findPair(doc: Document, path: readonly string[], keys: Map<Node, Map<unknown, Pair>>): Pair | null {
  let node: Node | null = doc.contents as Node | null;
  let found: Pair | null = null;
  for (const segment of path) {
    if (!isMap(node)) return null;
    let index = keys.get(node);
    if (index === undefined) {
      index = new Map();
      for (const p of node.items)
        if (isPair(p) && isScalar(p.key) && !index.has(p.key.value)) index.set(p.key.value, p);
      keys.set(node, index);
    }
    const pair = index.get(segment);
    if (pair === undefined) return null;
    found = pair as Pair;
    node = pair.value as Node | null;
  }
  return found;
}

/**
 * What `JSON.parse(JSON.stringify(value))` gives for a draft's plain data (no `toJSON`, no BigInt), without the
 * text in between: a fresh object per visit, so nothing is shared,
 * -0 as 0, a non-finite number as null, undefined and functions left out of objects and null in arrays.
 */
export function copyAsJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      items[i] = item === undefined || typeof item === 'function' ? null : copyAsJson(item);
    }
    return items;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    // An own `__proto__` key, as JSON.parse makes it, not the prototype an assignment would set.
    setOwn(copy, key, copyAsJson(item));
  }
  return copy;
}
