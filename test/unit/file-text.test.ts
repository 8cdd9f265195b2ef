import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { finalText, moduleFile, moduleParts } from '../../src/emit/shared/ts-text.js';
import { collapseBlankLines, finalParts, hashFileText, sameFileText, sameText } from '../../src/util/file-text.js';
import { stableJson, stableJsonParts } from '../../src/util/stable-json.js';

// A large file's text in parts (util/file-text.ts) must be, byte for byte, what the joined text was: each function
// on parts is checked against its one-string form over many random splits of texts made of the characters that
// matter (line breaks, CR, spaces, one outside Latin-1).

/** A small deterministic generator (a linear congruential one), so a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function randomParts(next: () => number): string[] {
  const alphabet = ['\n', '\n', '\n', '\r', ' ', 'a', 'b', '’'];
  const count = Math.floor(next() * 6);
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 7) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}

describe('file text in parts', () => {
  it('collapses blank lines and ends with one line break exactly as the joined text would', () => {
    const next = random(7);
    for (let i = 0; i < 5000; i++) {
      const parts = randomParts(next);
      const joined = parts.join('');
      expect(collapseBlankLines(parts).join('')).toBe(joined.replace(/\n{3,}/g, '\n\n'));
      expect(finalParts(parts).join('')).toBe(finalText(joined));
    }
  });

  it('compares and hashes without joining', () => {
    const parts = ['ab', '', 'c’\n'];
    expect([sameText('abc’\n', parts), sameText('abc’', parts), sameText('abc’\nx', parts)]).toEqual([
      true,
      false,
      false,
    ]);
    expect(hashFileText(parts)).toBe(createHash('sha256').update('abc’\n').digest('hex'));
  });

  it('compares two texts in parts as their joined forms, whatever their splits', () => {
    const next = random(11);
    let equal = 0;
    for (let i = 0; i < 20_000; i++) {
      const known = randomParts(next);
      // Half the time the same text split elsewhere, so that equal texts are compared as often as different ones.
      const text = next() < 0.5 ? known.join('').split(/(?<=b)/) : randomParts(next);
      const same = known.join('') === text.join('');
      equal += same ? 1 : 0;
      expect([sameFileText(known, text), sameFileText(text, known)]).toEqual([same, same]);
      expect(sameFileText(known.join(''), text)).toBe(same);
    }
    expect(equal).toBeGreaterThan(9_000);
  });

  it('writes a module and sorted JSON as their one-string forms', () => {
    const statements = ['const a = 1;', '/** x */\nconst b = "’";  \r\n'];
    for (const imports of [[], ["import type { A } from './a.js';"]]) {
      expect(moduleParts('// banner', imports, statements).join('')).toBe(moduleFile('// banner', imports, statements));
      expect(moduleParts('// banner', imports, []).join('')).toBe(moduleFile('// banner', imports, []));
    }
    const values = [
      {},
      [],
      null,
      { b: [1, { z: 2, a: [3, undefined] }], a: { y: 1, x: [] }, c: [], d: undefined },
      { tools: [{ q: 'é’', n: null }], z: 'x\ny' },
    ];
    for (const value of values)
      for (const indent of [0, 2] as const)
        expect(stableJsonParts(value, indent).join('')).toBe(stableJson(value, indent));
  });
});
