/**
 * `import openapi --update`: a curated manifest follows a changed spec. A three-way merge of the draft the last
 * import recorded (the base), the draft of the spec now, and the user's manifest, edited in place through the
 * `yaml` document API so that comments, key order and styles stay. Tools go by operation (merge-tools.ts),
 * every other value key by key (merge-values.ts). Pure: the caller reads and writes the files.
 */
import { type Document, isMap, LineCounter, type Node, parseDocument, YAMLMap } from 'yaml';
import { isRecord } from '../util/guards.js';
import { type Draft, renderDraft } from './draft.js';
import { ImportError } from './import-error.js';
import { mergeTools, type ToolChanges } from './merge-tools.js';
import { type MergeLog, mergeValue, unionKeys } from './merge-values.js';
import { entryTexts, keepsEntryLines, keepUntouchedEntries } from './update-text.js';

type Raw = Readonly<Record<string, unknown>>;

/** A conflict where the written manifest shows it. */
export interface LocatedConflict {
  readonly line: number;
  readonly col: number;
  /** The field, dotted from the manifest's root: `tools.get_pet.description`. */
  readonly field: string;
  readonly ours: unknown;
  readonly theirs: unknown;
}

export interface UpdateOutcome {
  readonly text: string;
  /** The merged manifest as data, as parsing `text` gives it. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly tools: ToolChanges;
  readonly updated: readonly string[];
  readonly conflicts: readonly LocatedConflict[];
}

/**
 * The user's manifest `text` (the file `file`) with what changed between `base` (the data of the last import's
 * draft) and `next` (the draft of the spec now) merged in. `handlerExists(name)` tells whether the user wrote the
 * handler file of the manifest's tool `name`.
 */
export function updateManifest(
  original: string,
  file: string,
  base: Raw,
  next: Draft,
  handlerExists: (name: string) => boolean,
): UpdateOutcome {
  // A file whose every line ends in CRLF (a Windows checkout) is merged with LF line ends and written back with CRLF,
  // and one that starts with a byte-order mark keeps it: the library prints LF, and no mark.
  const bom = original.startsWith('\uFEFF') ? '\uFEFF' : '';
  const crlf = original.includes('\r\n') && !/(^|[^\r])\n/.test(original);
  const unmarked = original.slice(bom.length);
  const text = crlf ? unmarked.replaceAll('\r\n', '\n') : unmarked;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const problem = doc.errors[0];
  if (problem !== undefined || !isMap(doc.contents)) {
    const pos = lines.linePos(problem?.pos[0] ?? 0);
    throw new ImportError({
      code: 'import-update',
      file,
      line: pos.line,
      col: pos.col,
      message:
        problem === undefined ? 'the manifest is not a mapping' : `the manifest does not parse: ${problem.message}`,
      hint: 'fix the manifest (mcp-gen validate shows where), then run import openapi --update again',
    });
  }
  const root = doc.contents as YAMLMap;
  // The entries' data before the merge, for a text whose untouched entries are put back as they are
  // (update-text.ts); not when an entry could lean on another through an anchor (an alias needs one).
  let linked = false;
  const onAnchor = () => {
    linked = true;
  };
  const before = keepsEntryLines(text) ? entryTexts(doc.toJS({ onAnchor })) : null;
  const log: MergeLog = { conflicts: [], updated: [] };
  for (const key of unionKeys(base, next.data))
    if (key !== 'tools') mergeValue(doc, root, key, base[key], next.data[key], [key], log);
  const found = root.get('tools', true) as Node | undefined;
  const tools = isMap(found) ? found : new YAMLMap();
  if (!isMap(found)) root.set('tools', tools);
  const baseTools = isRecord(base.tools) ? (base.tools as Record<string, Raw>) : {};
  const nextTools = isRecord(next.data.tools) ? (next.data.tools as Record<string, Raw>) : {};
  const addedText = (name: string) =>
    renderDraft({
      data: { tools: { [name]: nextTools[name] } },
      notes: next.notes.filter((n) => n.path[0] === 'tools' && n.path[1] === name),
      flags: [],
    });
  const changes = mergeTools(doc, tools, baseTools, nextTools, { addedText, handlerExists }, log);
  keepReferencedSchemas(doc, root, base, next.data);
  // A merge that changed nothing leaves the file as it was, byte for byte.
  const changed = log.updated.length + changes.added.length + changes.removed.length > 0;
  const data = doc.toJS() as Record<string, unknown>;
  if (!changed) return { text: original, data, tools: changes, updated: log.updated, conflicts: locate(text, log) };
  const printed = doc.toString({ lineWidth: 0, indent: 2 });
  const written = before !== null && !linked ? keepUntouchedEntries(text, printed, before, data) : printed;
  return {
    text: bom + (crlf ? written.replaceAll('\n', '\r\n') : written),
    data,
    tools: changes,
    updated: log.updated,
    conflicts: locate(written, log),
  };
}

/**
 * A shared schema the spec dropped comes back from the base when a tool still `$ref`s it (a tool kept for its
 * handler file, or the user's own), so the merge never leaves a dangling reference.
 */
function keepReferencedSchemas(doc: Document, root: YAMLMap, base: Raw, next: Raw): void {
  const dropped = Object.keys(isRecord(base.schemas) ? base.schemas : {}).filter(
    (name) => !isRecord(next.schemas) || !Object.hasOwn(next.schemas, name),
  );
  if (dropped.length === 0) return;
  const text = JSON.stringify(doc.toJS());
  const found = root.get('schemas', true) as Node | undefined;
  const schemas = isMap(found) ? found : new YAMLMap();
  for (const name of dropped) {
    if (!text.includes(JSON.stringify(`#/schemas/${name}`)) || schemas.has(name)) continue;
    schemas.set(name, doc.createNode((base.schemas as Raw)[name], { aliasDuplicateObjects: false }));
    if (!isMap(found) && !root.has('schemas')) root.set('schemas', schemas);
  }
}

/**
 * Each conflict at its field in the written text, or at the nearest mapping that holds it, in the order of the text
 * (the merge meets tools in the spec's order, which need not be the file's).
 */
function locate(text: string, log: MergeLog): LocatedConflict[] {
  if (log.conflicts.length === 0) return [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const located = log.conflicts.map((conflict) => {
    let node = doc.contents as Node | null;
    for (const key of conflict.path) {
      const next = isMap(node) ? (node.get(key, true) as Node | undefined) : undefined;
      if (next === undefined) break;
      node = next;
    }
    const pos = lines.linePos(node?.range?.[0] ?? 0);
    return {
      line: pos.line,
      col: pos.col,
      field: conflict.path.join('.'),
      ours: conflict.ours,
      theirs: conflict.theirs,
    };
  });
  return located.sort((a, b) => a.line - b.line || a.col - b.col);
}
