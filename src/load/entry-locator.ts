/**
 * Positions in a manifest whose data is already known, without parsing all of it: the draft `import` just
 * rendered and wrote, a large manifest parsed an entry at a time (piecewise.ts), or one whose data the pipeline
 * already knows. A pointer `/tools/x/...` is located by parsing only the file's header, the line of `tools:` and
 * the lines of entry `x`, with the `yaml` library, and mapping the lines back: a small document at a time instead
 * of one huge one. Every piece is checked after parsing (no error, exactly the one key and entry it was cut for);
 * anything else, and any text this cutting does not fit, is located in one parse of the whole text instead, so a
 * position is always the library's.
 */
import { Document, LineCounter, isMap, parseDocument, type Node } from 'yaml';
import { parsePointer } from '../util/json-pointer.js';
import { isRecord } from '../util/guards.js';
import { checkShape } from './limits.js';
import type { LoadResult } from './loaded.js';
import { createLocator, type Position, type Target } from './source-map.js';

type Locate = (segments: readonly string[], target?: Target) => Position;

/** Lines [start, end) of a mapping entry; `key` is the line of its key (after the comments above it). */
export interface Entry {
  readonly start: number;
  readonly key: number;
  readonly end: number;
}

/**
 * A manifest that mcp-gen rendered from `data` itself and has just written as `text`, or one that parsed cleanly
 * an entry at a time (piecewise.ts): the data as parsing the text gives it (the caller's copy, so no stage shares
 * objects with it), positions from `createEntryLocator`, and the same limits as a manifest read from disk. Such a
 * text has no syntax error, duplicate key or alias for the reading to find.
 */
export function loadRenderedManifest(text: string, data: unknown, file: string, absolutePath: string): LoadResult {
  const locate = createEntryLocator(text, data);
  const overLimits = checkShape(data, file, locate);
  if (overLimits.length > 0) return { ok: false, diagnostics: overLimits };
  return { ok: true, manifest: { file, absolutePath, text, data, locate } };
}

/** The locator of `text`, whose parsed data is `data`: `(pointer, target) -> line:col`. */
export function createEntryLocator(text: string, data: unknown): (pointer: string, target?: Target) => Position {
  const lines = text.split('\n');
  let whole: Locate | null = null;
  const wholeLocate: Locate = (segments, target) => {
    if (whole === null) {
      const lineCounter = new LineCounter();
      whole = createLocator(parseDocument(text, { lineCounter, uniqueKeys: true }), lineCounter);
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
  return first >= 0 && /^[^-?!&*%|>'"[{.]/.test(lines[first] ?? '') && !lines.some((l) => /^(---|\.\.\.)/.test(l));
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
  const keys: number[] = [];
  for (let i = from; i < to; i += 1) {
    const line = lines[i] ?? '';
    const c = line.charAt(indent.length);
    if (line.startsWith(indent) && c !== '' && c !== ' ' && c !== '\r' && c !== '#' && c !== '-') keys.push(i);
  }
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
  const locate = createLocator(doc, lineCounter);
  return (segments, target) => {
    const { line, col } = locate(segments, target);
    return { line: (kept[line - 1] ?? 0) + 1, col };
  };
}

function keyOf(pair: unknown): unknown {
  const key = (pair as { key?: { value?: unknown } } | undefined)?.key;
  return key?.value;
}
