/**
 * The one way a manifest's positions are found (`LoadedManifest.locate`), whatever gave its data: a whole parse,
 * a parse an entry at a time (piecewise.ts), the draft `import` just rendered, or data the pipeline already knew.
 * The data is known, so nothing is kept of a parsed document: a pointer `/tools/x/...` is located by parsing only
 * the file's header, the line of `tools:` and the lines of entry `x`, with the `yaml` library, and mapping the
 * lines back: a small document at a time instead of one huge one. Every piece is checked after parsing (no error,
 * exactly the one key and entry it was cut for); anything else, and any text this cutting does not fit, is located
 * in one parse of the whole text instead, so a position is always the library's.
 */
import { Document, LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { parsePointer } from '../util/json-pointer.js';
import { isRecord } from '../util/guards.js';
import { keyLinesAt } from '../util/key-lines.js';
import { checkShape } from './limits.js';
import type { LoadResult, Position, Target } from './loaded.js';

/**
 * Where each node of the document starts, without the document: a scalar (or anything that is neither a
 * mapping nor a sequence) is its offset alone; a mapping lists its scalar keys in order with the offset of each
 * key and its value; a sequence its items. The parsed document of a large manifest (tens of MB for GitHub's
 * draft) would otherwise stay alive for the whole run only to answer `locate`.
 */
type Spot = number | MapSpot | SeqSpot;
interface MapSpot {
  readonly offset: number;
  readonly keys: readonly string[];
  readonly keyOffsets: readonly number[];
  /** A missing value (`key:` with nothing after it) is the key's own spot, as the document walk had it. */
  readonly values: readonly Spot[];
}
interface SeqSpot {
  readonly offset: number;
  /** null where the document holds no node (the walk stops there, as at a missing index). */
  readonly items: readonly (Spot | null)[];
}

function offsetOf(node: Node | null | undefined): number {
  return node?.range?.[0] ?? 0;
}

function spotOf(node: Node | null): Spot {
  if (isMap(node)) {
    const keys: string[] = [];
    const keyOffsets: number[] = [];
    const values: Spot[] = [];
    for (const pair of node.items) {
      // Only scalar keys can be named by a pointer segment; other keys are never matched.
      if (!isScalar(pair.key)) continue;
      keys.push(String(pair.key.value));
      keyOffsets.push(offsetOf(pair.key));
      const value = (pair.value as Node | null) ?? null;
      values.push(value === null ? offsetOf(pair.key) : spotOf(value));
    }
    return { offset: offsetOf(node), keys, keyOffsets, values };
  }
  if (isSeq(node))
    return { offset: offsetOf(node), items: node.items.map((item) => (item ? spotOf(item as Node) : null)) };
  return offsetOf(node);
}

function spotOffset(spot: Spot): number {
  return typeof spot === 'number' ? spot : spot.offset;
}

/**
 * Maps JSON pointer segments to the YAML node they name, from the spots of a parsed document (taken once, here):
 * what every position is measured against, used by `createLocator` for each piece it parses. When a segment is
 * missing (a required key that is absent), the position of the deepest existing node is returned, so every
 * diagnostic still points somewhere sensible.
 */
export function locateInDocument(doc: Document, lineCounter: LineCounter) {
  const root: Spot | null = doc.contents === null ? null : spotOf(doc.contents as Node);
  const positionOf = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, col };
  };
  return (segments: readonly string[], target: Target = 'value'): Position => {
    let spot: Spot | null = root;
    let keyOffset: number | null = null;
    for (const segment of segments) {
      if (spot === null || typeof spot === 'number') break;
      if ('keys' in spot) {
        const index = spot.keys.indexOf(segment);
        if (index < 0) break;
        keyOffset = spot.keyOffsets[index] ?? 0;
        spot = spot.values[index] ?? null;
      } else {
        const item = spot.items[Number(segment)];
        if (item === undefined || item === null) break;
        keyOffset = spotOffset(item);
        spot = item;
      }
    }
    const offset = target === 'key' && keyOffset !== null ? keyOffset : spot === null ? 0 : spotOffset(spot);
    return positionOf(offset);
  };
}

type Locate = (segments: readonly string[], target?: Target) => Position;

/** Lines [start, end) of a mapping entry; `key` is the line of its key (after the comments above it). */
export interface Entry {
  readonly start: number;
  readonly key: number;
  readonly end: number;
}

/**
 * The manifest `text` whose data, as parsing it gives it, is `data` (parsed here or by the caller, which then
 * hands over a copy of its own, so no stage shares objects with it): positions from `createLocator`, and the
 * same limits as every manifest. A text given with its data has no syntax error, duplicate key or alias left
 * for the reading to find.
 */
export function manifestOfData(text: string, data: unknown, file: string, absolutePath: string): LoadResult {
  const locate = createLocator(text, data);
  const overLimits = checkShape(data, file, locate);
  if (overLimits.length > 0) return { ok: false, diagnostics: overLimits };
  return { ok: true, manifest: { file, absolutePath, text, data, locate } };
}

/** The locator of `text`, whose parsed data is `data`: `(pointer, target) -> line:col`. */
export function createLocator(text: string, data: unknown): (pointer: string, target?: Target) => Position {
  const lines = text.split('\n');
  let whole: Locate | null = null;
  const wholeLocate: Locate = (segments, target) => {
    if (whole === null) {
      const lineCounter = new LineCounter();
      whole = locateInDocument(parseDocument(text, { lineCounter, uniqueKeys: true }), lineCounter);
    }
    return whole(segments, target);
  };
  const first = firstKeyLine(lines);
  const plain = cuttable(lines, first);
  const sections = new Index(lines, plain ? entriesAt(lines, first, lines.length, '') : [], '');
  const inner = new Map<number, Index>();
  const pieces = new Map<string, Locate | null>();
  return (pointer, target) => {
    let segments = parsePointer(pointer);
    let [section, entry] = segments;
    // The file's own mapping, or a key it lacks (which locates there too): in the piece of the first key.
    if (section === undefined || !(isRecord(data) && Object.hasOwn(data, section))) {
      segments = [];
      section = isRecord(data) ? Object.keys(data)[0] : undefined;
      entry = undefined;
    }
    const found = section === undefined ? undefined : sections.find(section);
    if (section === undefined || found === undefined) return wholeLocate(segments, target);
    let entries = inner.get(found.key);
    if (entries === undefined) {
      entries = new Index(lines, entriesAt(lines, found.key + 1, found.end, '  '), '  ');
      inner.set(found.key, entries);
    }
    let item = entry === undefined ? undefined : entries.find(entry);
    const value = isRecord(data) ? data[section] : undefined;
    // An entry the index missed although the data has it must not be reported as absent.
    if (item === undefined && entry !== undefined && isRecord(value) && Object.hasOwn(value, entry))
      return wholeLocate(segments, target);
    const named = item === undefined ? undefined : entry;
    item ??= entries.first;
    const id = `${found.key}:${item?.key ?? ''}`;
    if (!pieces.has(id)) pieces.set(id, pieceLocator(lines, first, found, item, section, named));
    return (pieces.get(id) ?? wholeLocate)(segments, target);
  };
}

/** The first line of `lines` that starts a top-level node (neither indented nor a comment), or -1. */
export function firstKeyLine(lines: readonly string[]): number {
  return lines.findIndex((line) => /^[^\s#]/.test(line));
}

/** Only a block mapping at the top, in one document, is cut into entries; anything else is parsed whole. */
export function cuttable(lines: readonly string[], first: number): boolean {
  // startsWith, not a pattern per line: a large manifest has two hundred thousand lines, and is cut twice.
  const marker = (l: string) => l.startsWith('---') || l.startsWith('...');
  return first >= 0 && /^[^-?!&*%|>'"[{.]/.test(lines[first] ?? '') && !lines.some(marker);
}

/** The entries of one mapping by the text of their key lines, to find an entry by its key. */
class Index {
  private readonly byLine = new Map<string, Entry>();
  private readonly found = new Map<string, Entry | undefined>();
  readonly first: Entry | undefined;
  constructor(
    private readonly lines: readonly string[],
    private readonly entries: readonly Entry[],
    private readonly indent: string,
  ) {
    this.first = entries[0];
    for (const e of entries) {
      const line = lines[e.key] ?? '';
      const colon = line.indexOf(':');
      if (colon > 0 && !this.byLine.has(line.slice(0, colon + 1))) this.byLine.set(line.slice(0, colon + 1), e);
    }
  }

  /** The entry whose key line starts with `key` as the `yaml` library writes it. */
  find(key: string): Entry | undefined {
    if (this.found.has(key)) return this.found.get(key);
    const asWritten = new Document({ [key]: null }).toString({ lineWidth: 0 }).replace(/: null\n$/, '');
    const written = `${this.indent}${asWritten}:`;
    const matches = (e: Entry) => {
      const line = this.lines[e.key] ?? '';
      return line === written || line.startsWith(`${written} `);
    };
    const hit = this.byLine.get(written);
    // A key with a colon of its own is not in the map under its full text: look at every entry.
    const entry = hit !== undefined && matches(hit) ? hit : this.entries.find(matches);
    this.found.set(key, entry);
    return entry;
  }
}

/** The entries of the mapping whose keys start lines [from, to) at `indent`, each with the comments above it. */
export function entriesAt(lines: readonly string[], from: number, to: number, indent: string): Entry[] {
  const keys = keyLinesAt(lines, from, to, indent);
  return keys.map((key, i) => {
    let start = key;
    while (start > from && (lines[start - 1] ?? '').startsWith(`${indent}#`)) start -= 1;
    return { start, key, end: keys[i + 1] ?? to };
  });
}

/**
 * Parses the header, the key line of section `name` and the lines of `item` (all of the section when it has no
 * entries) as one document; null when that document is not exactly the one entry it was cut for (`entry`, when
 * it was cut for a named one).
 */
function pieceLocator(
  lines: readonly string[],
  first: number,
  section: Entry,
  item: Entry | undefined,
  name: string,
  entry: string | undefined,
): Locate | null {
  const ranges: [number, number][] = [[0, first]];
  if (item === undefined) ranges.push([section.start, section.end]);
  else ranges.push([section.start, section.key + 1], [item.start, item.end]);
  const kept: number[] = [];
  for (const [from, to] of ranges) for (let i = from; i < to; i += 1) kept.push(i);
  const lineCounter = new LineCounter();
  const doc = parseDocument(kept.map((i) => lines[i]).join('\n'), { lineCounter, uniqueKeys: true });
  const top = doc.contents as Node | null;
  if (doc.errors.length > 0 || !isMap(top) || top.items.length !== 1 || String(keyOf(top.items[0])) !== name)
    return null;
  if (item !== undefined) {
    const value = top.items[0]?.value;
    if (!isMap(value) || value.items.length !== 1) return null;
    if (entry !== undefined && String(keyOf(value.items[0])) !== entry) return null;
  }
  const locate = locateInDocument(doc, lineCounter);
  return (segments, target) => {
    const { line, col } = locate(segments, target);
    return { line: (kept[line - 1] ?? 0) + 1, col };
  };
}

function keyOf(pair: unknown): unknown {
  const key = (pair as { key?: { value?: unknown } } | undefined)?.key;
  return key?.value;
}
