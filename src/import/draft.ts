import { Document, isMap, isPair, isScalar, type Node, type Pair } from 'yaml';

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
 */
export function renderDraft(draft: Draft): string {
  // No anchors: a draft is edited by hand, and an edit to one tool's schema must not change another's.
  const doc = new Document(draft.data, { aliasDuplicateObjects: false });
  const header = draft.notes.filter((n) => n.path.length === 0).map((n) => commentLine(n.text));
  if (header.length > 0) doc.commentBefore = header.join('\n');
  const keys = new Map<Node, Map<unknown, Pair>>();
  for (const note of draft.notes) {
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
