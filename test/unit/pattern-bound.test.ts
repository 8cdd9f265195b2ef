import { describe, expect, it } from 'vitest';
import { patternBoundsLength } from '../../src/review/pattern-bound.js';

// Issue 33 item 12: lint-unbounded-string fired on strings bounded by `pattern`. A pattern bounds the length only
// when anchored at both ends with no unbounded repetition; everything else keeps the warning.

describe('patternBoundsLength', () => {
  it.each([
    '^[a-f0-9]{8}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^(ab|cd)\\*?[A-Z]{2,3}$',
    '^[*+]{1,4}$',
    '^\\p{L}{1,3}$',
    '^\\\\$',
    '^$',
  ])('%s bounds the length', (pattern) => {
    expect(patternBoundsLength(pattern)).toBe(true);
  });

  it.each([
    '[a-z]{1,8}',
    '^[a-z]{1,8}',
    '[a-z]{1,8}$',
    '^[a-z]*$',
    '^[a-z]+$',
    '^[a-z]{2,}$',
    '^a|b$',
    '^abc\\$',
    '^(?=.*x)[a-z]{1,5}$',
    '^[a-z$',
  ])('%s does not', (pattern) => {
    expect(patternBoundsLength(pattern)).toBe(false);
  });
});
