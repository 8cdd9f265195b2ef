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

/** What parsing the whole `text` gives (`toJS`), or null when it must be parsed whole to know. */
export function parsePieces(text: string): Record<string, unknown> | null {
  const lines = text.split('\n');
  const first = firstKeyLine(lines);
  if (!cuttable(lines, first) || !onlyNotes(lines, 0, first)) return null;
  const data: Record<string, unknown> = {};
  const sections = entriesAt(lines, first, lines.length, '');
  if (!simpleKeys(lines, sections, '')) return null;
  for (const section of sections) {
    const piece = sectionData(lines, section);
    if (piece === null || Object.hasOwn(data, piece[0])) return null;
    setOwn(data, piece[0], piece[1]);
  }
  return data;
}

/** The key and value of one top-level section, its entries parsed one by one when it has any. */
function sectionData(lines: readonly string[], section: Entry): [string, unknown] | null {
  const entries = entriesAt(lines, section.key + 1, section.end, '  ');
  const head = entries[0];
  if (head === undefined) return parsePiece(lines, [[section.key, section.end]]);
  if (!simpleKeys(lines, entries, '  ')) return null;
  if (!onlyNotes(lines, section.key + 1, head.start)) return null;
  let name: string | null = null;
  const value: Record<string, unknown> = {};
  for (const entry of entries) {
    const piece = parsePiece(lines, [
      [section.key, section.key + 1],
      [entry.key, entry.end],
    ]);
    if (piece === null || (name !== null && piece[0] !== name) || !isRecord(piece[1])) return null;
    name = piece[0];
    const keys = Object.keys(piece[1]);
    const key = keys[0];
    if (key === undefined || keys.length !== 1 || Object.hasOwn(value, key)) return null;
    setOwn(value, key, piece[1][key]);
  }
  return name === null ? null : [name, value];
}

/** The one key and its value that lines `ranges` parse to, or null when they are not exactly one plain key. */
function parsePiece(lines: readonly string[], ranges: readonly [number, number][]): [string, unknown] | null {
  // Each line as the file has it: with its line break, but the last line of the file without one it lacks (a
  // kept block scalar `|+` would take in a break the file does not have).
  const kept: string[] = [];
  for (const [from, to] of ranges)
    for (let i = from; i < to; i += 1) kept.push(i < lines.length - 1 ? `${lines[i]}\n` : (lines[i] ?? ''));
  const doc = parseDocument(kept.join(''), { uniqueKeys: true });
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
  return key === undefined || keys.length !== 1 ? null : [key, value[key]];
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
