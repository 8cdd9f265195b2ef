/**
 * Deep differences between two JSON values, each named by its JSON pointer
 * (RFC 6901) and shown with both values at that pointer. Pure.
 */
import { compareText } from '../util/compare.js';
import { isRecord } from '../util/guards.js';
import { sortKeysDeep } from '../util/stable-json.js';

/** One pointer at which the two sides differ; `undefined` is "absent on that side". */
export interface Difference {
  readonly pointer: string;
  readonly manifest: unknown;
  readonly server: unknown;
}

/** `/`-joined, each segment escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`). */
export function pointerOf(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * Every leaf at which `manifest` and `server` differ. Objects are compared key
 * by key; arrays of equal length index by index; anything else (or arrays of
 * different lengths) as a whole at its pointer.
 */
export function differences(manifest: unknown, server: unknown, at: readonly string[] = []): Difference[] {
  if (canonical(manifest) === canonical(server)) return [];
  if (isRecord(manifest) && isRecord(server)) {
    const keys = [...new Set([...Object.keys(manifest), ...Object.keys(server)])].sort(compareText);
    return keys.flatMap((key) => differences(manifest[key], server[key], [...at, key]));
  }
  if (Array.isArray(manifest) && Array.isArray(server) && manifest.length === server.length)
    return manifest.flatMap((item, i) => differences(item, server[i], [...at, String(i)]));
  return [{ pointer: pointerOf(at), manifest, server }];
}

/** `absent`, or the value's JSON with keys sorted. */
export function canonical(value: unknown): string {
  return value === undefined ? 'absent' : JSON.stringify(sortKeysDeep(value));
}

/** Longest text shown for one side before it is cut around the first character that differs. */
const shownChars = 240;
/** Characters kept before the first difference when a long value is cut. */
const lead = 40;

/**
 * Both values for a message. Short values are shown whole; a long one is cut
 * to a window that starts just before the first character where the two
 * differ, with explicit markers and its full length, so two cut values never
 * look alike.
 */
export function showPair(manifest: unknown, server: unknown): [string, string] {
  const a = canonical(manifest);
  const b = canonical(server);
  if (a.length <= shownChars && b.length <= shownChars) return [a, b];
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first += 1;
  const start = Math.max(0, first - lead);
  return [clip(a, start), clip(b, start)];
}

/** One value for a message, cut like {@link showPair} when long. */
export function show(value: unknown): string {
  return clip(canonical(value), 0);
}

function clip(text: string, start: number): string {
  if (text.length <= shownChars) return text;
  const from = Math.min(start, text.length);
  const end = Math.min(text.length, from + shownChars);
  const before = from > 0 ? `[…${from} characters] ` : '';
  const after = end < text.length ? ` […${text.length - end} more]` : '';
  return `${before}${text.slice(from, end)}${after} (${text.length} characters in all)`;
}
