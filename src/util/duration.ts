const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds in a duration such as `500ms`, `90s`, `15m`, `2h` or `1d`; undefined if malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9][0-9]*)(ms|s|m|h|d)$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
}
