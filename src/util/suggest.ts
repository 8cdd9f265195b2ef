import { compareText } from './compare.js';

/** Edit distance (insert, delete, substitute, transpose) between two short strings. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  // One row-major table: the distance between the first i characters of `a` and the first j of `b`.
  const d = new Uint32Array(rows * cols);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
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
