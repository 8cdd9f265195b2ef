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

/** JSON with recursively sorted keys, two-space indent and one trailing newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeysDeep(value), null, 2)}\n`;
}

/**
 * Texts of frozen values by identity: the model is deep-frozen, and a shared schema is the same frozen object in
 * every tool schema that reaches it, so digests over a thousand tools write its text once, not once per tool.
 */
const frozenTexts = new WeakMap<object, string>();

/** Exactly `JSON.stringify(sortKeysDeep(value))`, without the copy, and remembered for frozen objects and arrays. */
export function sortedJsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const known = frozenTexts.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (Array.isArray(value)) {
    const items = value.map((item) =>
      item === undefined || typeof item === 'function' ? 'null' : sortedJsonText(item),
    );
    text = `[${items.join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort(compareText)) {
      const item = record[key];
      if (item === undefined || typeof item === 'function') continue;
      parts.push(`${JSON.stringify(key)}:${sortedJsonText(item)}`);
    }
    text = `{${parts.join(',')}}`;
  }
  if (Object.isFrozen(value)) frozenTexts.set(value, text);
  return text;
}
