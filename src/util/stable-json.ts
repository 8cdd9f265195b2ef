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
 * {@link sortKeysDeep} that copies each object once: an object reached twice (a shared schema under the `$defs` of
 * a thousand tool schemas) is one copy reached twice, which `JSON.stringify` writes the same at each place.
 */
function sortKeysShared(value: unknown, copies: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  let out: unknown;
  if (Array.isArray(value)) out = value.map((item) => sortKeysShared(item, copies));
  else {
    const record: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareText)) {
      record[key] = sortKeysShared((value as Record<string, unknown>)[key], copies);
    }
    out = record;
  }
  copies.set(value, out);
  return out;
}

/** JSON with recursively sorted keys, a two-space indent (`indent` 0: none, on one line) and one trailing newline. */
export function stableJson(value: unknown, indent: 0 | 2 = 2): string {
  return `${JSON.stringify(sortKeysShared(value, new Map()), null, indent)}\n`;
}

/**
 * Exactly `JSON.stringify(sortKeysDeep(value))`, without the copy. `frozenTexts` remembers the text of each frozen
 * object and array by identity: the model is deep-frozen, and a shared schema is the same frozen object in every tool
 * schema that reaches it, so a digest over a thousand tools writes its text once, not once per tool. The memory is
 * the caller's, for one digest: every nested object's text is its own string, so remembering them for the whole run
 * would hold a large model several times over.
 */
export function sortedJsonText(value: unknown, frozenTexts: Map<object, string> = new Map()): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const known = frozenTexts.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      item === undefined || typeof item === 'function' ? 'null' : sortedJsonText(item, frozenTexts),
    );
    text = `[${items.join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort(compareText)) {
      const item = record[key];
      if (item === undefined || typeof item === 'function') continue;
      parts.push(`${JSON.stringify(key)}:${sortedJsonText(item, frozenTexts)}`);
    }
    text = `{${parts.join(',')}}`;
  }
  if (Object.isFrozen(value)) frozenTexts.set(value, text);
  return text;
}

/**
 * Feeds exactly `sortedJsonText(value)` to `hash`, piece by piece: a digest over a thousand tools hashes the
 * remembered texts of their frozen schemas without first joining them into one text of the whole list.
 */
export function hashSortedJson(hash: Hash, value: unknown, frozenTexts: Map<object, string> = new Map()): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) {
    hash.update(sortedJsonText(value, frozenTexts), 'utf8');
  } else if (Array.isArray(value)) {
    hash.update('[');
    value.forEach((item, i) => {
      if (i > 0) hash.update(',');
      if (item === undefined || typeof item === 'function') hash.update('null');
      else hashSortedJson(hash, item, frozenTexts);
    });
    hash.update(']');
  } else {
    const record = value as Record<string, unknown>;
    let first = true;
    hash.update('{');
    for (const key of Object.keys(record).sort(compareText)) {
      const item = record[key];
      if (item === undefined || typeof item === 'function') continue;
      hash.update(`${first ? '' : ','}${JSON.stringify(key)}:`, 'utf8');
      first = false;
      hashSortedJson(hash, item, frozenTexts);
    }
    hash.update('}');
  }
}
