import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { type PieceMemo, parsePieces } from '../../src/load/piecewise.js';

// The piece cache (src/cache/pieces.ts) answers load's memo: a piece whose text it knows is not parsed again, and
// the data is the same as a parse of the whole text.

/** A memo over a map, counting what load asked and what it parsed. */
function countingMemo(known = new Map<string, readonly [string, unknown]>()) {
  const counts = { hits: 0, parsed: 0 };
  const memo: PieceMemo = {
    get(text) {
      const found = known.get(text);
      if (found !== undefined) counts.hits += 1;
      return found;
    },
    set(text, value) {
      counts.parsed += 1;
      known.set(text, value);
    },
  };
  return { memo, counts, known };
}

const manifest = (description: string) =>
  [
    'mcpGen: 1',
    'server: {name: demo, version: 1.0.0}',
    'tools:',
    ...Array.from({ length: 5 }, (_, i) => [
      `  tool_${i}:`,
      `    description: ${i === 2 ? description : `tool ${i}`}`,
      '    input: {"type": "object"}',
    ]).flat(),
    '',
  ].join('\n');

describe('the piece memo', () => {
  it('parses again only the piece that changed, to the data of a whole parse', () => {
    const { memo, counts, known } = countingMemo();
    const first = manifest('before');
    expect(parsePieces(first, memo)).toEqual(parseDocument(first).toJS());
    expect(counts).toEqual({ hits: 0, parsed: 7 });
    const next = countingMemo(known);
    const edited = manifest('after');
    expect(parsePieces(edited, next.memo)).toEqual(parseDocument(edited).toJS());
    expect(next.counts).toEqual({ hits: 6, parsed: 1 });
  });

  it('keeps no piece that holds an anchor or an alias: what it gives depends on another piece', () => {
    const { memo, known } = countingMemo();
    const aliased = `${manifest('x')}prompts: &p {}\nresources: *p\n`;
    expect(parsePieces(aliased, memo)).toBeNull();
    expect([...known.keys()].filter((text) => /[&*]p/.test(text))).toEqual([]);
  });
});
