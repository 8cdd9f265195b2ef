import { compareText } from './compare.js';

/** Edit distance (insert, delete, substitute, transpose) between two short strings. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      const prev = d[i - 1]!;
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest candidate to `word`, or undefined when none is close enough to
 * be a plausible typo (distance at most a third of the word, at least 1).
 * Case-insensitive matches win outright; ties go to the first in byte order.
 */
export function suggestClosest(word: string, candidates: Iterable<string>): string | undefined {
  const sorted = [...candidates].sort(compareText);
  const lower = word.toLowerCase();
  const exact = sorted.find((c) => c.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of sorted) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
