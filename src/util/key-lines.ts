/**
 * Where the keys of a block mapping start, read off the lines of its text without parsing: what load cuts a large
 * manifest into pieces by (load/locator.ts) and what `--update` puts back entry by entry (import/update-text.ts).
 */

/** The lines in [from, to) where a key starts at exactly `indent` (not a comment, a list item or a deeper line). */
export function keyLinesAt(lines: readonly string[], from: number, to: number, indent: string): number[] {
  const keys: number[] = [];
  for (let i = from; i < to; i += 1) {
    const line = lines[i] ?? '';
    const c = line.charAt(indent.length);
    if (line.startsWith(indent) && c !== '' && c !== ' ' && c !== '\r' && c !== '#' && c !== '-') keys.push(i);
  }
  return keys;
}
