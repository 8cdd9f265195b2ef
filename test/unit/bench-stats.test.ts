import { describe, expect, it } from 'vitest';
import { median, medianInterval, paired, quantile, seededRandom, shuffled, summarize } from '../../scripts/bench/stats.mjs';

// The statistics behind docs/benchmarks.md: exact values, so a table can be trusted to say what it computes.
describe('benchmark statistics', () => {
  it('takes medians and quartiles by linear interpolation between order statistics, whatever the input order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(quantile([8, 7, 6, 5, 4, 3, 2, 1], 0.25)).toBe(2.75);
    expect(summarize([8, 7, 6, 5, 4, 3, 2, 1])).toEqual({ n: 8, median: 4.5, q1: 2.75, q3: 6.25, min: 1, max: 8 });
    expect(median([])).toBeNaN();
  });

  it('gives the sign-test interval of a median, and the whole range below six values', () => {
    const ten = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(medianInterval(ten)).toEqual([2, 9]); // P(Binomial(10, 1/2) <= 1) = 11/1024 <= 2.5% < 56/1024
    expect(medianInterval([5, 1, 4, 2, 3])).toEqual([1, 5]);
    expect(medianInterval(Array.from({ length: 20 }, (_, i) => i + 1))).toEqual([6, 15]);
  });

  it('pairs two series round by round: median difference, median ratio, and rounds where the first was lower', () => {
    expect(paired([10, 20, 30], [5, 10, 10])).toEqual({ n: 3, diff: 10, diffInterval: [5, 20], ratio: 2, ratioInterval: [2, 3], below: 0 });
    expect(paired([1, 5], [2, 4]).below).toBe(1);
    expect(() => paired([1], [1, 2])).toThrow('paired series differ in length');
  });

  it('replays the same order from the same seed', () => {
    const first = shuffled(['a', 'b', 'c', 'd', 'e'], seededRandom(1));
    expect(shuffled(['a', 'b', 'c', 'd', 'e'], seededRandom(1))).toEqual(first);
    expect(first).toEqual(['e', 'c', 'b', 'a', 'd']); // mulberry32 from seed 1: a recorded run's order stays replayable
    expect(seededRandom(7)()).toBe(seededRandom(7)());
  });
});
