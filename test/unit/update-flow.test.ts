import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { copyAsJson, renderDraft, type Draft } from '../../src/import/draft.js';
import { updateManifest } from '../../src/import/update.js';

// `--update` of a large draft, whose schemas are JSON (src/import/draft-flow.ts): the `yaml` library writes flow
// collections its own way, so every entry the merge left alone must come back as the file had it
// (src/import/update-text.ts), and the text must still parse to the merged data.

const wide = Object.fromEntries(Array.from({ length: 160 }, (_, i) => [`field_${i}`, { type: 'string', i }]));

/** A draft of 200 bound tools with large schemas (past the size that writes schemas as JSON). */
function draft(description: (i: number) => string): Draft {
  const tools: Record<string, unknown> = {};
  for (let i = 0; i < 200; i += 1)
    tools[`tool_${i}`] = {
      title: `Tool ${i}`,
      description: description(i),
      input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      output: { type: 'object', properties: wide },
      http: { method: 'GET', path: `/things/${i}/{id}`, args: { id: 'path' } },
    };
  const schemas = { thing: { type: 'object', properties: wide } };
  return { data: { mcpGen: 1, server: { name: 'big', version: '1.0.0' }, schemas, tools }, notes: [], flags: [] };
}

const lines = (text: string) => text.split('\n');

describe('--update of a draft with JSON schemas', () => {
  it('rewrites only the entries the merge changed, and parses to the merged data', () => {
    const base = draft((i) => `Tool number ${i}.`);
    const text = renderDraft(base);
    expect(text).toContain('    output: {\n');
    // The user retitles one tool; the spec rewrites another's description and adds a property to a third's input.
    const user = text.replace('    title: Tool 5\n', '    title: My tool five\n');
    const next = draft((i) => (i === 7 ? 'Tool number seven, rewritten.' : `Tool number ${i}.`));
    const tools = next.data.tools as Record<string, { input: { properties: Record<string, unknown> } }>;
    tools.tool_9.input.properties.limit = { type: 'integer' };
    const update = updateManifest(
      user,
      'mcp.yaml',
      copyAsJson(base.data) as Record<string, unknown>,
      next,
      () => false,
    );
    expect(update.updated).toEqual(['tools.tool_7.description', 'tools.tool_9.input.properties.limit']);
    // Each entry's lines, from its key to the next entry's.
    const blocks = (text: string) => {
      const all = text.split('\n');
      const keys = all.flatMap((line, i) => (/^ {2}[a-z_0-9]+:/.test(line) ? [i] : []));
      return new Map(keys.map((at, k) => [all[at] ?? '', all.slice(at, keys[k + 1]).join('\n')]));
    };
    const before = blocks(user);
    const after = blocks(update.text);
    expect([...after.keys()]).toEqual([...before.keys()]);
    // Only tool_7 and tool_9 read differently; every other entry, tool_5 and its retitle included, is as it was.
    expect([...after.keys()].filter((key) => after.get(key) !== before.get(key))).toEqual(['  tool_7:', '  tool_9:']);
    const old = new Set(lines(user));
    const changed = lines(update.text).filter((line) => !old.has(line));
    expect(changed).toContain('    description: Tool number seven, rewritten.');
    expect(update.text).toContain('    title: My tool five\n');
    const doc = parseDocument(update.text, { uniqueKeys: true });
    expect(doc.errors).toEqual([]);
    expect(JSON.stringify(doc.toJS())).toBe(JSON.stringify(update.data));
  });
});
