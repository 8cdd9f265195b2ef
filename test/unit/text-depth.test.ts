import { describe, expect, it } from 'vitest';
import { textTooDeepAt } from '../../src/load/text-depth.js';

// The depth of a manifest's text, for one nested past what the YAML parser's stack holds: structure counts, text
// does not (an apostrophe or a bracket inside a plain scalar, a quoted string, a comment, a block scalar).

describe('textTooDeepAt', () => {
  it('counts indentation, list dashes and brackets where a value starts', () => {
    const text = ['a:', '  b:', '    - - c: [1, [2]]', 'd: 1'].join('\n');
    // The file's mapping, a's, b's list, the list inside it, the mapping of c: c's `[` is level 6, the one in it 7.
    expect(textTooDeepAt(text, 7)).toBeNull();
    expect(textTooDeepAt(text, 6)).toBe(text.indexOf('[2'));
    expect(textTooDeepAt(text, 5)).toBe(text.indexOf('[1'));
  });

  it('reads quotes, apostrophes, brackets in text, comments and block scalars as text', () => {
    const text = [
      "a: it's [not] a list # [[[[",
      'b: "[[[[ \\" [[[["',
      "c: '[[[[ '' [[[['",
      'd: |',
      '            deeply',
      '                    indented text [[[[',
      'e: x',
    ].join('\n');
    expect(textTooDeepAt(text, 1)).toBeNull();
  });

  it('follows a flow collection across lines', () => {
    const text = 'a: [\n  [\n    [1]\n  ]\n]\nb: 1';
    expect(textTooDeepAt(text, 4)).toBeNull();
    expect(textTooDeepAt(text, 3)).toBe(text.indexOf('[1'));
  });
});
