import { describe, expect, it } from 'vitest';
import { formatReport } from '../../src/diagnostics/index.js';
import { parseManifest } from '../../src/load/index.js';
import { checkSize } from '../../src/load/limits.js';
import { manifestLimits } from '../../src/model/limits.js';

const nestedLists = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

// The nesting limit counts mappings and lists from the top of the file, wherever they are.
describe('manifest nesting limit', () => {
  it('accepts 67 levels and refuses the 68th, outside a tool schema too, naming the level', () => {
    // The file's mapping is level 1, so the outermost list is level 2.
    expect(parseManifest(`mcpGen: 1\nx: ${nestedLists(66)}\n`, 'm.yaml').ok).toBe(true);
    const result = parseManifest(`mcpGen: 1\nx: ${nestedLists(67)}\n`, 'm.yaml');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(formatReport(result.diagnostics).split('\n')[0]).toBe(
      'm.yaml:2:70: error [manifest-too-deep] the manifest nests deeper than the limit of 67 levels of mappings ' +
        'and lists; this list is level 68',
    );
  });

  it('reports the first place in file order, with the path of keys and indexes to it', () => {
    const deep = nestedLists(67);
    const result = parseManifest(`mcpGen: 1\nx:\n  a: 1\n  b: [0, ${deep}]\ny: ${deep}\n`, 'm.yaml');
    expect(result.ok ? [] : result.diagnostics.map((d) => `${d.line}:${d.col} ${d.pointer}`)).toEqual([
      // `  b: [0, ` is 9 characters: b's second item, level 4, is at column 10, and level 68 is 64 lists in.
      `4:${10 + 64} /x/b/1${'/0'.repeat(64)}`,
    ]);
  });

  it('stops at the limit on a structure that contains itself', () => {
    const result = parseManifest('mcpGen: 1\nx: &loop [ *loop ]\n', 'm.yaml');
    expect(result.ok ? [] : result.diagnostics.map((d) => d.code)).toEqual(['manifest-too-deep']);
  });
});

describe('manifest size limit', () => {
  const limit = manifestLimits.bytes;
  const head = Buffer.from(`${'x'.repeat(99)}\n`.repeat(limit / 100 + 1));

  it('accepts the limit, and names the size and the line where a larger file crosses it', () => {
    expect(checkSize('m.yaml', head, limit)).toBeNull();
    expect(formatReport([checkSize('m.yaml', head, limit + 1) ?? []].flat()).split('\n')[0]).toBe(
      'm.yaml:83887:9: error [manifest-too-large] manifest "m.yaml" is 8388609 bytes, more than the limit of ' +
        '8 MiB (8388608 bytes); it was not parsed and the limit is crossed here',
    );
  });

  it('does not claim a size for a pipe, whose length only shows that it is over', () => {
    expect(checkSize('-', head, limit + 1, false)?.message).toBe(
      'manifest "-" is more than the limit of 8 MiB (8388608 bytes); it was not parsed and the limit is crossed here',
    );
  });
});
