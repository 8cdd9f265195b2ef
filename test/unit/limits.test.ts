import { describe, expect, it } from 'vitest';
import { formatReport } from '../../src/diagnostics/index.js';
import { parseManifest } from '../../src/load/index.js';

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

  it('stops at the limit on a structure that contains itself', () => {
    const result = parseManifest('mcpGen: 1\nx: &loop [ *loop ]\n', 'm.yaml');
    expect(result.ok ? [] : result.diagnostics.map((d) => d.code)).toEqual(['manifest-too-deep']);
  });
});
