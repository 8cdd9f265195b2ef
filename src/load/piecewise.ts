/**
 * The data of a large manifest parsed a piece at a time: the top-level keys one by one, and each entry of a
 * section on its own, under its section's key line, with the `yaml` library. Parsing a large draft whole builds
 * the library's document of all of it at once, the peak of a `generate` after an edit; a piece is one tool. The cut
 * is the locator's (locator.ts), and it is taken only when it cannot change the data: every piece
 * parses without an error or a warning, holds exactly the one key it was cut for and no anchor or alias, no key
 * repeats, and every line outside the pieces is blank or a comment. Otherwise the answer is null and the caller
 * parses the whole text, so every diagnostic still comes from one parse of it.
 */
import { parseDocument, visit } from 'yaml';
import { isRecord } from '../util/guards.js';
import { setOwn } from '../util/set-own.js';
import { cuttable, type Entry, entriesAt, firstKeyLine } from './locator.js';

/** Lines of the text, as [from, to) ranges, that parse to one key and its value. */
type Ranges = readonly (readonly [number, number])[];

/**
 * What parsing a piece's text gave before, asked before the piece is parsed and told each piece parsed (the
 * cache's, src/cache/pieces.ts): after an edit of one tool, only that tool's piece is parsed again. It holds only
 * pieces that parsed to exactly one plain key.
 */
export interface PieceMemo {
  get(text: string): readonly [string, unknown] | undefined;
  set(text: string, parsed: readonly [string, unknown]): void;
}

/** The pieces of `text`, section by section (a section's entries, or null for a section parsed whole). */
interface Cut {
  readonly lines: readonly string[];
  readonly sections: readonly { readonly whole: Ranges; readonly entries: readonly Ranges[] | null }[];
}

/** The pieces `text` is cut into, or null when it must be parsed whole. */
function cutText(text: string): Cut | null {
  const lines = text.split('\n');
  const first = firstKeyLine(lines);
  if (!cuttable(lines, first) || !onlyNotes(lines, 0, first)) return null;
  const sections = entriesAt(lines, first, lines.length, '');
  if (!simpleKeys(lines, sections, '')) return null;
  const cut: Cut['sections'][number][] = [];
  for (const section of sections) {
    const whole: Ranges = [[section.key, section.end]];
    const entries = entriesAt(lines, section.key + 1, section.end, '  ');
    const head = entries[0];
    if (head === undefined) {
      cut.push({ whole, entries: null });
      continue;
    }
    if (!simpleKeys(lines, entries, '  ') || !onlyNotes(lines, section.key + 1, head.start)) return null;
    const keyLine = [section.key, section.key + 1] as const;
    cut.push({ whole, entries: entries.map((entry) => [keyLine, [entry.key, entry.end]] as const) });
  }
  return { lines, sections: cut };
}

/** What parsing the whole `text` gives (`toJS`), or null when it must be parsed whole to know. */
export function parsePieces(text: string, memo?: PieceMemo): Record<string, unknown> | null {
  const cut = cutText(text);
  if (cut === null) return null;
  const data: Record<string, unknown> = {};
  for (const section of cut.sections) {
    const piece =
      section.entries === null
        ? parsePiece(cut.lines, section.whole, memo)
        : sectionData(cut.lines, section.entries, memo);
    if (piece === null || Object.hasOwn(data, piece[0])) return null;
    setOwn(data, piece[0], piece[1]);
  }
  return data;
}

/**
 * Each piece's text of `text` and what it parses to, read off `data`, the data the whole text parsed to (keys in
 * the text's order, as the `yaml` library and JSON keep them): a memo filled without parsing a piece. Null when
 * the text is not cut, or its pieces and `data`'s keys do not pair up.
 */
export function piecesOf(text: string, data: unknown): [string, readonly [string, unknown]][] | null {
  const cut = cutText(text);
  if (cut === null || !isRecord(data)) return null;
  const names = Object.keys(data);
  if (names.length !== cut.sections.length) return null;
  const out: [string, readonly [string, unknown]][] = [];
  for (const [i, section] of cut.sections.entries()) {
    const name = names[i] as string;
    const value = data[name];
    if (section.entries === null) {
      out.push([pieceText(cut.lines, section.whole), [name, value]]);
      continue;
    }
    if (!isRecord(value) || Object.keys(value).length !== section.entries.length) return null;
    for (const [j, key] of Object.keys(value).entries())
      out.push([pieceText(cut.lines, section.entries[j] as Ranges), [name, { [key]: value[key] }]]);
  }
  return out;
}

/** The key and value of one section with entries, its entries parsed one by one. */
function sectionData(lines: readonly string[], entries: readonly Ranges[], memo?: PieceMemo): [string, unknown] | null {
  let name: string | null = null;
  const value: Record<string, unknown> = {};
  for (const ranges of entries) {
    const piece = parsePiece(lines, ranges, memo);
    if (piece === null || (name !== null && piece[0] !== name) || !isRecord(piece[1])) return null;
    name = piece[0];
    const keys = Object.keys(piece[1]);
    const key = keys[0];
    if (key === undefined || keys.length !== 1 || Object.hasOwn(value, key)) return null;
    setOwn(value, key, piece[1][key]);
  }
  return name === null ? null : [name, value];
}

/**
 * Lines `ranges` of `lines` as the file has them: each with its line break, but the last line of the file without
 * the one it lacks (a kept block scalar `|+` would take in a break the file does not have).
 */
function pieceText(lines: readonly string[], ranges: Ranges): string {
  const kept: string[] = [];
  for (const [from, to] of ranges)
    for (let i = from; i < to; i += 1) kept.push(i < lines.length - 1 ? `${lines[i]}\n` : (lines[i] ?? ''));
  return kept.join('');
}

/** The one key and its value that lines `ranges` parse to, or null when they are not exactly one plain key. */
function parsePiece(lines: readonly string[], ranges: Ranges, memo?: PieceMemo): readonly [string, unknown] | null {
  const text = pieceText(lines, ranges);
  const known = memo?.get(text);
  if (known !== undefined) return known;
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0 || doc.warnings.length > 0) return null;
  let linked = false;
  visit(doc, {
    Node(_key, node) {
      if ('anchor' in node && node.anchor !== undefined) linked = true;
      return linked ? visit.BREAK : undefined;
    },
    Alias() {
      linked = true;
      return visit.BREAK;
    },
  });
  if (linked) return null;
  const value: unknown = doc.toJS();
  if (!isRecord(value)) return null;
  const keys = Object.keys(value);
  const key = keys[0];
  if (key === undefined || keys.length !== 1) return null;
  const parsed = [key, value[key]] as const;
  memo?.set(text, parsed);
  return parsed;
}

/**
 * True when no entry starts with `?` or `:`: an explicit key (`? key` then `: value`) spans two such lines, which
 * the cut would take for two entries that each parse, alone, to a key of their own.
 */
function simpleKeys(lines: readonly string[], entries: readonly Entry[], indent: string): boolean {
  return entries.every((e) => !/^[?:]/.test((lines[e.key] ?? '').slice(indent.length)));
}

/** True when lines [from, to) hold nothing but blanks and comments. */
function onlyNotes(lines: readonly string[], from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (!/^[ \t]*(#.*)?\r?$/.test(lines[i] ?? '')) return false;
  return true;
}
