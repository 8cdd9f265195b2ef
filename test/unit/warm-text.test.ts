import { describe, expect, it } from 'vitest';
import { openTextMemo } from '../../src/cache/warm-text.js';

// A watcher decodes the manifest again after every save, reusing the text of the lines the save did not touch
// (src/cache/warm-text.ts). Whatever the edit, the text must be what decoding the bytes whole gives: checked over
// long runs of random edits of texts large enough to hold many of its marks, with characters of every UTF-8 length.

/** A small deterministic generator (a linear congruential one), so a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const alphabet = ['a', 'b', ' ', ' ', '\n', '\n', 'é', '’', '😀', ':', '-'];

function randomText(next: () => number, length: number): string {
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

/** One edit a save may make: an insertion, a deletion or a replacement anywhere, a few characters or many. */
function edit(next: () => number, text: string): string {
  // Never between the two halves of a surrogate pair: the text stays valid, so its bytes are UTF-8.
  const whole = (at: number) => (/[\uDC00-\uDFFF]/.test(text[at] ?? '') ? at + 1 : at);
  const at = whole(Math.floor(next() * (text.length + 1)));
  const large = Math.ceil(text.length / 2);
  const end = whole(Math.min(text.length, at + (next() < 0.3 ? 0 : Math.floor(next() * (next() < 0.9 ? 8 : large)))));
  const added = next() < 0.3 ? '' : randomText(next, Math.floor(next() * (next() < 0.9 ? 12 : large / 2)));
  return text.slice(0, at) + added + text.slice(end);
}

describe('the warm decoder', () => {
  it('gives the text of the whole bytes after every edit', () => {
    // Marks every 64 bytes, so that many edits fall right next to one; then as the watcher has them.
    for (const [seed, markEvery, length, rounds] of [
      [1, 64, 3_000, 3_000],
      [2, 64, 20_000, 1_000],
      [3, 65_536, 250_000, 60],
    ] as const) {
      const next = random(seed);
      const memo = openTextMemo(markEvery);
      let text = randomText(next, length);
      for (let round = 0; round < rounds; round++) {
        const bytes = Buffer.from(text, 'utf8');
        expect(memo.decode('/m.yaml', bytes), `seed ${seed} round ${round}`).toBe(bytes.toString('utf8'));
        text = edit(next, text);
      }
    }
  });

  it('decodes the same bytes to the same text, and starts over for another file', () => {
    const memo = openTextMemo();
    const one = Buffer.from(`${'x’\n'.repeat(70_000)}end`, 'utf8');
    const other = Buffer.from(`${'y😀\n'.repeat(70_000)}end`, 'utf8');
    expect(memo.decode('/one.yaml', one)).toBe(one.toString('utf8'));
    expect(memo.decode('/one.yaml', one)).toBe(one.toString('utf8'));
    expect(memo.decode('/other.yaml', other)).toBe(other.toString('utf8'));
    expect(memo.decode('/one.yaml', Buffer.from('\uFEFFshort', 'utf8'))).toBe('\uFEFFshort');
    expect(memo.decode('/one.yaml', Buffer.alloc(0))).toBe('');
  });
});
