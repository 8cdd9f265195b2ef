const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `ms` in the manifest's duration syntax, in the largest unit that divides it: 30000 -> `30s`. */
export function formatDuration(ms: number): string {
  const units = (Object.entries(unitMs) as [keyof typeof unitMs, number][]).reverse();
  const [unit, size] = units.find(([, size]) => ms % size === 0) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}

/** Milliseconds in a duration such as `500ms`, `90s`, `15m`, `2h` or `1d`; undefined if malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9][0-9]*)(ms|s|m|h|d)$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
}

/** Milliseconds of a `ttl`/`ttlMs` pair (validate allows at most one), or `fallback` when neither is given. */
export function durationMs(ttl: string | undefined, ttlMs: number | undefined, fallback: number): number {
  if (ttlMs !== undefined) return ttlMs;
  if (ttl === undefined) return fallback;
  const ms = parseDuration(ttl);
  // The schema's duration pattern is the parser's; validate reported anything else.
  if (ms === undefined) throw new Error(`internal error: duration "${ttl}" passed validation but does not parse`);
  return ms;
}
