/**
 * The text `--update` writes. The `yaml` library writes the merged document again whole, in its own way: a flow
 * collection respaced (a large draft's schemas, written as indented JSON by draft-flow.ts, would all come back
 * reformatted after a merge that changed one tool), a folded block rewrapped, the spaces before a comment dropped,
 * runs of blank lines made one. So each entry of `tools:` and `schemas:`, and each other top-level section
 * (`server:`, `config:`, ...), whose data the merge left as it was is put back as the user's file had it, line for
 * line, and only the entries the merge changed, added or removed read as the library writes them.
 *
 * Both texts are cut into top-level sections and two-space entries line by line, as load cuts them
 * (load/locator.ts). An entry's lines then parse to the same data wherever they stand, as long as no entry leans on
 * another: so the library's text is kept whole when the user's document holds an anchor, an alias or a directive, or
 * a key that is not a plain name. An entry written in the file's style again is checked by a parse of it alone, and
 * written as the library prints it unless that gives exactly its merged data.
 */
import { parseDocument } from 'yaml';
import { isRecord } from '../util/guards.js';
import { keyLinesAt } from '../util/key-lines.js';
import { flowJson } from './draft-flow.js';

type Raw = Readonly<Record<string, unknown>>;

/** The sections whose entries are put back one by one. */
const sections = ['tools', 'schemas'];

/**
 * Each entry's data as JSON, to tell which ones a merge changed: `section/name` for an entry of `tools:` and
 * `schemas:`, the key alone for any other top-level section.
 */
export function entryTexts(data: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isRecord(data)) return out;
  for (const [key, entries] of Object.entries(data)) {
    if (!sections.includes(key)) out.set(key, JSON.stringify(entries));
    else if (isRecord(entries))
      for (const [name, value] of Object.entries(entries)) out.set(`${key}/${name}`, JSON.stringify(value));
  }
  return out;
}

/**
 * True when `text` holds no directive or document marker, which would make an entry's lines mean something else
 * alone. Only then are entries put back (`keepUntouchedEntries`).
 */
export function keepsEntryLines(text: string): boolean {
  return !/^(%|---|\.\.\.)/m.test(text);
}

/**
 * `written` (the library's text of the merged document, whose data is `merged`) with every entry whose data is the
 * same in `before` (the user's data before the merge) put back as `original` (the user's text) had it. `original`
 * must hold no anchor (an alias needs one) and pass `keepsEntryLines`.
 */
export function keepUntouchedEntries(
  original: string,
  written: string,
  before: ReadonlyMap<string, string>,
  merged: Raw,
): string {
  const kept = entryLines(original);
  const ours = entryLines(written);
  if (kept === null || ours === null) return written;
  const after = entryTexts(merged);
  const lines = written.split('\n');
  const out: string[] = [];
  let at = 0;
  for (const { id, from, to } of ours.entries) {
    const theirs = kept.byId.get(id);
    if (theirs === undefined) continue;
    const same = before.get(id) !== undefined && before.get(id) === after.get(id);
    out.push(...lines.slice(at, from));
    if (same) {
      // The library may print the comments above an entry at the end of the entry before it (when the user's own
      // comment ends that one): they come back with this entry, and go from the end of that one.
      dropMovedComments(out, theirs);
      out.push(...theirs, ...movedComments(lines.slice(from, to), theirs));
    } else out.push(...restyled(id, lines.slice(from, to), theirs, merged));
    at = to;
  }
  out.push(...lines.slice(at));
  return out.join('\n');
}

const isComment = (line: string) => /^\s*#/.test(line);

/** The comment lines at the end of `lines`. */
function trailingComments(lines: readonly string[]): string[] {
  let from = lines.length;
  while (from > 0 && isComment(lines[from - 1] ?? '')) from -= 1;
  return lines.slice(from);
}

/** The comments at the end of `written` (an entry as the library prints it) that `original` does not hold. */
function movedComments(written: readonly string[], original: readonly string[]): string[] {
  const own = new Set(original.filter(isComment).map((line) => line.trim()));
  return trailingComments(written).filter((line) => !own.has(line.trim()));
}

/** Drops from the end of `out` the comments that stand, in the same order, above the key of `entry`. */
function dropMovedComments(out: string[], entry: readonly string[]): void {
  const above = entry
    .slice(
      0,
      entry.findIndex((line) => line !== '' && !isComment(line)),
    )
    .filter(isComment);
  for (let i = above.length - 1; i >= 0 && out.length > 0 && isComment(out.at(-1) ?? ''); i -= 1) {
    if (out.at(-1)?.trim() !== above[i]?.trim()) return;
    out.pop();
  }
}

/**
 * The library's lines of an entry the merge changed, with each schema body that `original` (the user's lines of it)
 * wrote as JSON written so again (draft-flow.ts): a tool's `input` and `output`, a shared schema whole.
 */
function restyled(id: string, written: readonly string[], original: readonly string[], merged: Raw): string[] {
  // A top-level section the merge changed reads as the library prints it.
  if (!id.includes('/')) return [...written];
  const [section = '', name = ''] = id.split('/');
  const entries = merged[section];
  const value = isRecord(entries) ? entries[name] : undefined;
  const styled = restyle(section, name, value, written, original);
  if (styled.join('\n') === written.join('\n')) return styled;
  // Checked alone: the entry under its section's key must give exactly its merged data.
  const doc = parseDocument(`${section}:\n${styled.join('\n')}\n`, { uniqueKeys: true });
  const parsed = doc.toJS() as Record<string, Record<string, unknown>> | null;
  const same =
    doc.errors.length === 0 &&
    doc.warnings.length === 0 &&
    JSON.stringify(parsed?.[section]?.[name]) === JSON.stringify(value);
  return same ? styled : [...written];
}

/** `written` with each schema body that `original` wrote as JSON written so again. */
function restyle(
  section: string,
  name: string,
  value: unknown,
  written: readonly string[],
  original: readonly string[],
) {
  const flow = (prefix: string) =>
    original.some((line) => line.startsWith(prefix) && /^[[{]/.test(line.slice(prefix.length)));
  if (section === 'schemas') {
    const at = written.findIndex((line) => line.startsWith(`  ${name}:`));
    if (at < 0 || value === undefined || !flow(`  ${name}: `)) return [...written];
    return [...written.slice(0, at), ...`  ${name}: ${flowJson(value, 2)}`.split('\n')];
  }
  let out = [...written];
  for (const key of ['input', 'output']) {
    const body = isRecord(value) ? value[key] : undefined;
    const at = out.findIndex((line) => line === `    ${key}:` || line.startsWith(`    ${key}: `));
    if (at < 0 || body === undefined || !flow(`    ${key}: `)) continue;
    // The body runs to the next line that is not deeper than the entry's keys.
    let end = at + 1;
    while (end < out.length && !/^ {0,4}\S/.test(out[end] ?? '')) end += 1;
    out = [...out.slice(0, at), ...`    ${key}: ${flowJson(body, 4)}`.split('\n'), ...out.slice(end)];
  }
  return out;
}

/**
 * An entry of `tools:` or `schemas:` (`section/name`), or a top-level section of another key (the key), and its
 * lines [from, to), the comments above it included.
 */
interface EntryLines {
  readonly id: string;
  readonly from: number;
  readonly to: number;
}

/** The entries of `text`'s sections, or null when they cannot be told apart line by line. */
function entryLines(text: string): { entries: EntryLines[]; byId: Map<string, string[]> } | null {
  const lines = text.split('\n');
  const entries: EntryLines[] = [];
  const byId = new Map<string, string[]>();
  const add = (id: string, from: number, to: number) => {
    if (byId.has(id)) return false;
    byId.set(id, lines.slice(from, to));
    entries.push({ id, from, to });
    return true;
  };
  const tops = keyLinesAt(lines, 0, lines.length, '');
  for (const [i, top] of tops.entries()) {
    const end = tops[i + 1] ?? lines.length;
    const key = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):( |$)/.exec(lines[top] ?? '')?.[1];
    if (key === undefined) return null;
    if (!sections.includes(key) || lines[top] !== `${key}:`) {
      if (!add(key, entryStart(lines, top, -1, '#'), entryEnd(lines, top, end))) return null;
      continue;
    }
    const keys = keyLinesAt(lines, top + 1, end, '  ');
    for (const [j, at] of keys.entries()) {
      const name = /^ {2}([A-Za-z0-9_][A-Za-z0-9_.-]*):( |$)/.exec(lines[at] ?? '')?.[1];
      if (name === undefined) return null;
      if (!add(`${key}/${name}`, entryStart(lines, at, top, '  #'), entryEnd(lines, at, keys[j + 1] ?? end)))
        return null;
    }
  }
  return { entries, byId };
}

/**
 * Where the entry whose key is at line `key` starts: at the first of the blank lines and the comments (lines that
 * start with `comment`) right above it, below line `bound`, so that the blank lines between entries are the user's.
 */
function entryStart(lines: readonly string[], key: number, bound: number, comment: string): number {
  let from = key;
  while (from > bound + 1 && (lines[from - 1] === '' || (lines[from - 1] ?? '').startsWith(comment))) from -= 1;
  return from;
}

/**
 * Where the entry whose key is at line `key` ends, before line `end`: blank lines and comments at the margin or at an
 * entry's indentation after it are left out, to stay where the library's text has them.
 */
function entryEnd(lines: readonly string[], key: number, end: number): number {
  let to = end;
  while (to > key + 1 && /^( {2}#.*|#.*|)$/.test(lines[to - 1] ?? '')) to -= 1;
  return to;
}
