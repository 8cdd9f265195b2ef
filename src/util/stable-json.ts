import type { Hash } from 'node:crypto';
import { compareText } from './compare.js';

/** A deep copy of `value` whose object keys are sorted with {@link compareText}; arrays keep their order. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareText)) {
      out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

/**
 * A `JSON.stringify` replacer that writes each object with its keys sorted: the object as its holder has it (before
 * any `toJSON`, as {@link sortKeysDeep} copies it), one level at a time. Each level's copy lives only while it is
 * written, so a large registry is never held twice, as a sorted deep copy beside the model.
 */
function sortedLevel(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (raw === null || typeof raw !== 'object') return value;
  if (Array.isArray(raw)) return raw;
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(raw).sort(compareText)) record[name] = (raw as Record<string, unknown>)[name];
  return record;
}

/** JSON with recursively sorted keys, a two-space indent (`indent` 0: none, on one line) and one trailing newline. */
export function stableJson(value: unknown, indent: 0 | 2 = 2): string {
  return `${JSON.stringify(value, sortedLevel, indent)}\n`;
}

/** `stableJson(value, 0)` without its newline: one line, keys sorted (`null` for what JSON cannot hold). */
export function sortedLine(value: unknown): string {
  return JSON.stringify(value, sortedLevel) ?? 'null';
}

/**
 * `stableJson(value, indent)` in parts (util/file-text.ts): one per member of a top-level object and one per item of
 * an array member, so a large registry is never one string. `lines` holds the `sortedLine` of some items, already
 * written for another purpose (a digest); on one line (`indent` 0) they are used as they are.
 */
export function stableJsonParts(
  value: unknown,
  indent: 0 | 2 = 2,
  lines: ReadonlyMap<unknown, string> = new Map(),
): string[] {
  const raw = value as Record<string, unknown>;
  const members =
    raw === null || typeof raw !== 'object' || Array.isArray(raw)
      ? []
      : Object.keys(raw)
          .sort(compareText)
          .filter((key) => raw[key] !== undefined && typeof raw[key] !== 'function');
  if (members.length === 0) return [stableJson(value, indent)];
  const line = (depth: number) => (indent === 0 ? '' : `\n${' '.repeat(indent * depth)}`);
  // JSON.stringify's indentation only adds up, so a nested value's text is its own text with every line moved in.
  const nested = (item: unknown, depth: number) => {
    if (indent === 0) return lines.get(item) ?? sortedLine(item);
    return (JSON.stringify(item, sortedLevel, indent) ?? 'null').replaceAll('\n', line(depth));
  };
  const parts = ['{'];
  for (const [i, key] of members.entries()) {
    const item = raw[key];
    parts.push(`${i === 0 ? '' : ','}${line(1)}${JSON.stringify(key)}:${indent === 0 ? '' : ' '}`);
    if (!Array.isArray(item) || item.length === 0) parts.push(nested(item, 1));
    else {
      parts.push('[');
      for (const [j, element] of item.entries()) parts.push(`${j === 0 ? '' : ','}${line(2)}${nested(element, 2)}`);
      parts.push(`${line(1)}]`);
    }
  }
  parts.push(`${line(0)}}\n`);
  return parts;
}

/**
 * Exactly `JSON.stringify(sortKeysDeep(value))`, without the copy. `frozenTexts` remembers the text of each frozen
 * object and array by identity: the model is deep-frozen, and a shared schema is the same frozen object in every tool
 * schema that reaches it, so a digest over a thousand tools writes its text once, not once per tool. The memory is
 * the caller's, for one digest: every nested object's text is its own string, so remembering them for the whole run
 * would hold a large model several times over.
 */
export function sortedJsonText(value: unknown, frozenTexts: Map<object, string> = new Map()): string {
  return textOf(value, frozenTexts, Object.isFrozen);
}

/** `sortedJsonText`, remembering the text of the objects `keep` accepts. */
function textOf(value: unknown, texts: Map<object, string>, keep: (value: object) => boolean): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const known = texts.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      item === undefined || typeof item === 'function' ? 'null' : textOf(item, texts, keep),
    );
    text = `[${items.join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort(compareText)) {
      const item = record[key];
      if (item === undefined || typeof item === 'function') continue;
      parts.push(`${JSON.stringify(key)}:${textOf(item, texts, keep)}`);
    }
    text = `{${parts.join(',')}}`;
  }
  if (keep(value)) texts.set(value, text);
  return text;
}

/** The objects reached more than once from `value` (a shared schema under many tools), found without any text. */
function reachedTwice(value: unknown): Set<object> {
  const seen = new Set<object>();
  const twice = new Set<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (seen.has(node)) {
      twice.add(node);
      return;
    }
    seen.add(node);
    for (const item of Array.isArray(node) ? node : Object.values(node)) visit(item);
  };
  visit(value);
  return twice;
}

/**
 * Feeds exactly `sortedJsonText(value)` to `hash`, in pieces of about 16 thousand characters (each small enough to
 * stay out of the large-object space). Only a frozen object reached more than once has its text built whole and
 * remembered (in `frozenTexts`), to be hashed again at every place: remembering the text of every nested object, as
 * `sortedJsonText` does, held a large API's whole tool list as text many times over (each object's text within its
 * parent's: 21 million characters for Stripe's).
 */
export function hashSortedJson(hash: Hash, value: unknown, frozenTexts: Map<object, string> = new Map()): void {
  const twice = reachedTwice(value);
  const keep = (node: object) => twice.has(node) && Object.isFrozen(node);
  const pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (pending.length > 0) hash.update(pending.join(''), 'utf8');
    pending.length = 0;
    size = 0;
  };
  // Whole pieces only: a piece is never split, so neither is a surrogate pair.
  const put = (piece: string) => {
    pending.push(piece);
    size += piece.length;
    if (size >= 16384) flush();
  };
  const write = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || keep(node)) put(textOf(node, frozenTexts, keep));
    else if (Array.isArray(node)) {
      put('[');
      node.forEach((item, i) => {
        if (i > 0) put(',');
        if (item === undefined || typeof item === 'function') put('null');
        else write(item);
      });
      put(']');
    } else {
      const record = node as Record<string, unknown>;
      let first = true;
      put('{');
      for (const key of Object.keys(record).sort(compareText)) {
        const item = record[key];
        if (item === undefined || typeof item === 'function') continue;
        put(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        write(item);
      }
      put('}');
    }
  };
  write(value);
  flush();
}
