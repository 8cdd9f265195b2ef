// Types of stats.mjs, for the unit test that checks its exact values.
export function quantile(values: readonly number[], p: number): number;
export function median(values: readonly number[]): number;
export function summarize(values: readonly number[]): {
  n: number;
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
};
export function medianInterval(values: readonly number[]): [number, number];
export function paired(
  a: readonly number[],
  b: readonly number[],
): {
  n: number;
  diff: number;
  diffInterval: [number, number];
  ratio: number;
  ratioInterval: [number, number];
  below: number;
};
export function seededRandom(seed: number): () => number;
export function shuffled<T>(items: readonly T[], random: () => number): T[];
