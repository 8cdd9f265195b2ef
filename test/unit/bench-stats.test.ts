import { describe, expect, it } from 'vitest';
import {
  median,
  medianInterval,
  paired,
  quantile,
  seededRandom,
  shuffled,
  summarize,
} from '../../scripts/bench/stats.mjs';
import { formatNumber, formatRow } from '../../scripts/bench/table.mjs';

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
    expect(paired([10, 20, 30], [5, 10, 10])).toEqual({
      n: 3,
      diff: 10,
      diffInterval: [5, 20],
      ratio: 2,
      ratioInterval: [2, 3],
      below: 0,
    });
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

describe('benchmark table rows', () => {
  it('formats numbers by size, with a true minus sign', () => {
    expect([
      formatNumber(1234.5),
      formatNumber(12.34),
      formatNumber(9.876),
      formatNumber(-12.34),
      formatNumber(NaN),
    ]).toEqual(['1,235', '12.3', '9.88', '−12.3', 'n/a']);
  });

  it('judges a ratio target on the paired ratio and marks brackets from fewer than six pairs', () => {
    const row = {
      figure: 'x',
      unit: 'ms',
      ours: [10, 20, 30],
      baseline: { label: 'y', samples: [20, 40, 60] },
      target: { ratioMax: 0.8 },
    };
    expect(formatRow(row)).toBe(
      '| x | 20.0 ms (15.0–25.0) | y | 40.0 ms (30.0–50.0) | 0.50× ' +
        '[0.50–0.50]† | −20.0 ms [−30.0 to −10.0]† | ≤ 0.80× | met |',
    );
  });

  it('judges an absolute target on the median and says when the interval spans it', () => {
    expect(formatRow({ figure: 'w', unit: 'ms', ours: [250, 310, 400], target: { max: 300 } })).toBe(
      '| w | 310 ms (280–355) | — | — | — | — | ≤ 300 ms | **MISSED** (CI spans the target) |',
    );
  });
});
