import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { copyAsJson, renderDraft, type Draft } from '../../src/import/index.js';
import { flowDraftChars } from '../../src/import/draft-flow.js';
import { parsePieces, piecesOf } from '../../src/load/piecewise.js';

// A large draft writes its schemas as JSON (src/import/draft-flow.ts): the text must parse, whole and a piece at a
// time, to exactly the draft's data, keys in the same order, whatever the spec's strings and names hold.

/** The whole text's data, failing on any error or warning. */
function parsed(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true });
  expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([]);
  return doc.toJS();
}

const tricky = {
  type: 'object',
  description:
    'quotes " and \\ and\nnew lines\r\n, tabs\t, U+2028 \u2028, a lone surrogate \ud800, # not a comment, ' +
    'characters YAML does not print raw: DEL \u007f, C1 \u0080 \u0085 \u009f, BOM \ufeff, \ufffe',
  properties: {
    // An own key named __proto__, as JSON.parse makes it (a literal `__proto__:` would set the prototype).
    ...JSON.parse('{"__proto__": {"type": "string", "default": "__proto__"}}'),
    'a: b': { type: 'number', minimum: -1.5e-7, maximum: 1e21, multipleOf: 0.5 },
    '- x': { type: 'array', items: [], prefixItems: [{}, { const: null }] },
    '#c': { enum: [true, false, 0, '', '0', 'null', '~', 'yes', '@at', '`tick`', '&anchor', '*alias'] },
    [`long ${'k'.repeat(1100)}`]: { type: 'integer' },
  },
  required: ['a: b'],
};

/** A draft of `count` tools, each with the tricky input and a large output, and as many shared schemas. */
function largeDraft(count: number, notes: Draft['notes'] = []): Draft {
  const tools: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, { type: 'string', i }]));
  for (let i = 0; i < count; i += 1) {
    tools[`tool_${i}`] = {
      title: `Tool ${i}`,
      // A description whose lines read like the keys the flow writer looks for.
      description: `line one\n  input: {}\n  output: {}\ninput: {}`,
      annotations: { readOnlyHint: true },
      input: tricky,
      output: { type: 'object', properties: wide },
      http: { method: 'GET', path: `/things/${i}` },
    };
    schemas[i % 2 === 0 ? `io.k8s.v1alpha1.Rule${i}` : `"quoted" name: ${i}`] = { type: 'object', properties: wide };
  }
  return { data: { mcpGen: 1, server: { name: 'big', version: '1.0.0' }, schemas, tools }, notes, flags: [] };
}

describe('a large draft writes its schemas as JSON', () => {
  it('parses back to the draft data, keys in order, whole and a piece at a time', () => {
    const draft = largeDraft(200);
    expect(JSON.stringify(draft.data).length).toBeGreaterThan(flowDraftChars);
    const text = renderDraft(draft);
    expect(text).toContain('    input: {\n        "type": "object",\n');
    expect(text).toContain('      "- x": {"type": "array", "items": [], "prefixItems": [{}, {"const": null}]},\n');
    const expected = copyAsJson(draft.data);
    expect(JSON.stringify(parsed(text))).toBe(JSON.stringify(expected));
    expect(JSON.stringify(parsePieces(text))).toBe(JSON.stringify(expected));
  });

  it('pairs each piece with the data it parses to alone', () => {
    const draft = largeDraft(200);
    const text = renderDraft(draft);
    const pieces = piecesOf(text, copyAsJson(draft.data));
    // mcpGen, server's name and version, then a piece per shared schema and per tool.
    expect(pieces?.length).toBe(3 + 200 + 200);
    for (const [piece, [key, value]] of pieces ?? []) expect(parsed(piece)).toEqual({ [key]: value });
  });

  it('keeps block style for a schema that holds a note, and for a small draft', () => {
    const noted = largeDraft(200, [{ path: ['tools', 'tool_7', 'input', 'properties'], text: 'a note inside' }]);
    const text = renderDraft(noted);
    const seventh = text.slice(text.indexOf('  tool_7:'), text.indexOf('  tool_8:'));
    expect(seventh).toContain('    input:\n      type: object\n');
    expect(seventh).toContain('      # a note inside\n      properties:\n');
    expect(seventh).toContain('    output: {\n');
    expect(JSON.stringify(parsed(text))).toBe(JSON.stringify(copyAsJson(noted.data)));
    const small = renderDraft(largeDraft(3));
    expect(small).not.toContain('{"');
    expect(small).toContain('    input:\n      type: object\n');
  });
});
