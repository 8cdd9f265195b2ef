// Statistics for the benchmark tables: medians and quartiles of samples, a distribution-free
// confidence interval for a median, paired comparisons, and a seeded shuffle for run order.
// Pure functions of their inputs; nothing here measures anything.

function sortedCopy(values) {
  return Float64Array.from(values).sort();
}

/**
 * The p-quantile (0..1) of `values`, interpolated linearly between order statistics (the usual
 * "type 7" definition of R and NumPy), so the median of an even count is the mean of the middle two.
 */
export function quantile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = sortedCopy(values);
  const position = (sorted.length - 1) * p;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** The median of `values`. */
export function median(values) {
  return quantile(values, 0.5);
}

/** `{ n, median, q1, q3, min, max }` of `values`: the centre and the spread a table row shows. */
export function summarize(values) {
  const sorted = sortedCopy(values);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    min: sorted.length === 0 ? NaN : sorted[0],
    max: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
  };
}

/**
 * A distribution-free confidence interval of at least 95% for the median of `values` (the
 * sign-test interval): the k-th smallest and k-th largest values, with k the largest rank such that
 * P(Binomial(n, 1/2) < k) <= 2.5%. Assumes nothing about the shape of the noise. Below six values
 * no such k exists and the interval is the whole range, min to max.
 */
export function medianInterval(values) {
  const sorted = sortedCopy(values);
  const n = sorted.length;
  if (n === 0) return [NaN, NaN];
  let below = 0; // P(X < k) for X ~ Binomial(n, 1/2), built up term by term
  let term = 0.5 ** n; // P(X = 0)
  let k = 0;
  while (below + term <= 0.025) {
    below += term;
    term = (term * (n - k)) / (k + 1);
    k++;
  }
  return k === 0 ? [sorted[0], sorted[n - 1]] : [sorted[k - 1], sorted[n - k]];
}

/**
 * Compares two series measured in the same rounds (`a[i]` and `b[i]` ran back to back): the median
 * of the per-round differences a − b and of the per-round ratios a / b, each with its sign-test
 * interval, and in how many rounds a was below b. Pairing cancels load that comes and goes, which
 * moves both runs of a round alike; two medians taken apart do not.
 */
export function paired(a, b) {
  if (a.length !== b.length) throw new Error(`paired series differ in length: ${a.length} and ${b.length}`);
  const diffs = a.map((x, i) => x - b[i]);
  const ratios = a.map((x, i) => x / b[i]);
  return {
    n: a.length,
    diff: median(diffs),
    diffInterval: medianInterval(diffs),
    ratio: median(ratios),
    ratioInterval: medianInterval(ratios),
    below: diffs.filter((d) => d < 0).length,
  };
}

/** A seeded generator of numbers in [0, 1) (mulberry32), so a run's order can be replayed. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shuffled copy of `items` (Fisher–Yates, driven by `random`). */
export function shuffled(items, random) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
