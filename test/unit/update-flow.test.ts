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

/** `--update` of the user's text `user` of the draft `base`, with the spec's draft now `next`. */
const merge = (user: string, base: Draft, next: Draft) =>
  updateManifest(user, 'mcp.yaml', copyAsJson(base.data) as Record<string, unknown>, next, () => false);

describe('--update of a draft with JSON schemas', () => {
  it('rewrites only the entries the merge changed, and parses to the merged data', () => {
    const base = draft((i) => `Tool number ${i}.`);
    const text = renderDraft(base);
    expect(text).toContain('    output: {\n');
    // The user retitles one tool; the spec rewrites another's description and adds a property to a third's input.
    const user = text.replace('    title: Tool 5\n', '    title: My tool five\n');
    const next = draft((i) => (i === 7 ? 'Tool number seven, rewritten.' : `Tool number ${i}.`));
    const tools = next.data.tools as { tool_9: { input: { properties: Record<string, unknown> } } };
    tools.tool_9.input.properties.limit = { type: 'integer' };
    const schemas = next.data.schemas as { thing: { properties: Record<string, unknown> } };
    schemas.thing.properties = { extra: { type: 'boolean' }, ...schemas.thing.properties };
    const update = merge(user, base, next);
    expect([...update.updated].sort()).toEqual([
      'schemas.thing.properties.extra',
      'tools.tool_7.description',
      'tools.tool_9.input.properties.limit',
    ]);
    // Each entry's lines, from its key to the next entry's.
    const blocks = (text: string) => {
      const all = text.split('\n');
      const keys = all.flatMap((line, i) => (/^ {2}[a-z_0-9]+:/.test(line) ? [i] : []));
      const name = (line: string) => /^ {2}([a-z_0-9]+):/.exec(line)?.[1] ?? line;
      return new Map(keys.map((at, k) => [name(all[at] ?? ''), all.slice(at, keys[k + 1]).join('\n')]));
    };
    const before = blocks(user);
    const after = blocks(update.text);
    expect([...after.keys()]).toEqual([...before.keys()]);
    // Only tool_7 and tool_9 read differently; every other entry, tool_5 and its retitle included, is as it was.
    expect([...after.keys()].filter((key) => after.get(key) !== before.get(key))).toEqual([
      'thing',
      'tool_7',
      'tool_9',
    ]);
    expect(after.get('thing')).toMatch(/^ {2}thing: \{\n {6}"type": "object",\n {6}"properties": \{\n {8}"/);
    // The changed ones keep the file's style: JSON schema bodies as the draft wrote them. tool_7 differs in its
    // description line alone, tool_9 in its input's new property.
    const differing = (name: string) => {
      const [was, is] = [lines(before.get(name) ?? ''), lines(after.get(name) ?? '')];
      return is.filter((line, i) => line !== was[i]);
    };
    expect(differing('tool_7')).toEqual(['    description: Tool number seven, rewritten.']);
    expect(after.get('tool_9')).toContain(
      '    input: {\n' +
        '        "type": "object",\n' +
        '        "properties": {"id": {"type": "string"}, "limit": {"type": "integer"}},\n' +
        '        "required": ["id"]\n' +
        '      }\n',
    );
    const old = new Set(lines(user));
    const changed = lines(update.text).filter((line) => !old.has(line));
    expect(changed).toContain('    description: Tool number seven, rewritten.');
    expect(update.text).toContain('    title: My tool five\n');
    const doc = parseDocument(update.text, { uniqueKeys: true });
    expect(doc.errors).toEqual([]);
    expect(JSON.stringify(doc.toJS())).toBe(JSON.stringify(update.data));
  });

  it('prints the whole text as the library does when an anchor could tie one entry to another', () => {
    const base = draft((i) => `Tool number ${i}.`);
    const user = renderDraft(base).replace('    title: Tool 5\n', '    title: &five My tool five\n');
    const next = draft((i) => (i === 7 ? 'Tool number seven, rewritten.' : `Tool number ${i}.`));
    const update = merge(user, base, next);
    expect(update.text).toContain('    title: &five My tool five\n');
    // tool_0, which the merge did not change, reads as the library prints a flow collection, not as the file had it.
    const asFiled =
      '  tool_0:\n    title: Tool 0\n    description: Tool number 0.\n    input: {\n        "type": "object",\n';
    expect(user).toContain(asFiled);
    expect(update.text).not.toContain(asFiled);
    expect(JSON.stringify(parseDocument(update.text).toJS())).toBe(JSON.stringify(update.data));
  });
});
