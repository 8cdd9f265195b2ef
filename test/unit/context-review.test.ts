import { describe, expect, it } from 'vitest';
import { normalizeManifest } from '../../src/normalize/index.js';
import { reviewModel } from '../../src/review/index.js';
import { toolsListCost } from '../../src/review/tokens.js';
import { searchSurface } from '../../src/model/search.js';
import { wireTools } from '../../src/model/toolset.js';
import { validated } from '../support/manifests.js';

/** A manifest of `count` read-only tools; tool `heavy` gets a description `heavy` sentences long. */
function manifest(count: number, review: string, heavy = 1, prefix = 'get_item_'): string {
  const tools = Array.from({ length: count }, (_, i) => {
    const sentences = i === 3 ? heavy : 1;
    return (
      `  ${prefix}${String(i).padStart(2, '0')}:\n    title: Get item ${i}\n` +
      `    description: ${`Return item ${i} with its fields. `.repeat(sentences).trim()}\n` +
      '    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
      '    input: { type: object, additionalProperties: false }\n'
    );
  });
  return `mcpGen: 1\nserver: { name: big-api, version: 1.0.0 }\n${review}tools:\n${tools.join('')}`;
}

const review = (text: string) => {
  const model = normalizeManifest(validated(text));
  return { model, review: reviewModel(model, []) };
};

describe('the context budget', () => {
  it('measures each tool as tools/list sends it, and the list as the sum with its frame', () => {
    const { model, review: r } = review(manifest(3, ''));
    const wire = wireTools(model);
    expect(r.context.tools.map((t) => t.bytes)).toEqual(wire.map((t) => Buffer.byteLength(JSON.stringify(t))));
    const bytes = Buffer.byteLength(JSON.stringify({ tools: wire }));
    expect(r.cost).toEqual({ bytes, tokens: Math.ceil(bytes / 4) });
    expect(toolsListCost(model)).toEqual(r.cost);
    expect(r.context.breaks).toEqual([]);
    expect(r.gate.find((g) => g.id === 'R5')).toMatchObject({
      status: 'PASS',
      reason:
        `3 tool(s), within lint.maxTools (20); the default tools/list costs about ${r.cost.tokens} tokens, ` +
        'within review.maxListTokens (20000)',
    });
  });

  it('fails R5 past review.maxListTokens, naming the heaviest tools and the fix', () => {
    const { review: r } = review(manifest(6, 'review: { maxListTokens: 300 }\n', 40));
    const finding = r.findings.find((f) => f.code === 'lint-list-too-large');
    expect(finding?.message).toBe(
      `the default tools/list costs about ${r.cost.tokens} tokens (6 tools), more than review.maxListTokens (300); ` +
        'heaviest: get_item_03 (' +
        `${r.context.tools[3]?.tokens}), get_item_00 (${r.context.tools[0]?.tokens}), get_item_01 (` +
        `${r.context.tools[1]?.tokens}), get_item_02 (${r.context.tools[2]?.tokens}), get_item_04 (` +
        `${r.context.tools[4]?.tokens})`,
    );
    expect(finding?.hint).toContain('toolsets:');
    expect(r.gate.find((g) => g.id === 'R5')?.status).toBe('FAIL');
    expect(r.failed).toBe(true);
  });

  it('shows every broken host limit, and fails only on the hosts the manifest names', () => {
    const shown = review(manifest(41, ''));
    expect(shown.review.context.breaks.map((b) => [b.host, b.target])).toEqual([['cursor', false]]);
    expect(shown.review.gate.find((g) => g.id === 'R5')?.status).toBe('WARN');
    const named = review(manifest(41, 'review: { hosts: [cursor, vscode-copilot] }\n'));
    expect(named.review.findings.filter((f) => f.code === 'lint-host-limit').map((f) => f.message)).toEqual([
      'Cursor (cursor): the default surface lists 41 tools, more than the 40 it takes',
    ]);
    expect(named.review.gate.find((g) => g.id === 'R5')?.status).toBe('FAIL');
  });

  it('checks tool names against the host: length with the server name, characters', () => {
    const long = `get_${'x'.repeat(50)}_`;
    const { review: r } = review(manifest(2, 'review: { hosts: [cursor, openai] }\n', 1, long));
    expect(r.context.breaks.map((b) => b.message)).toEqual([
      `Cursor (cursor): tool names must be at most 60 characters with the server name: ${long}00, ${long}01`,
    ]);
    const dotted = review(manifest(1, 'review: { hosts: [openai] }\n', 1, 'v2.get_'));
    expect(dotted.review.findings.find((f) => f.code === 'lint-host-limit')).toMatchObject({
      message:
        'OpenAI function calling (and hosts built on it) (openai): tool names must be at most 64 ' +
        'characters, matching ^[a-zA-Z0-9_-]+$: v2.get_00',
      at: { pointer: '/tools/v2.get_00' },
    });
  });

  it('with discovery: search costs the two tools of the surface, exactly as sent, and keeps the full costs', () => {
    const { model, review: r } = review(manifest(45, 'discovery: search\nreview: { maxListTokens: 1000 }\n'));
    const surface = searchSurface(model);
    const bytes = Buffer.byteLength(JSON.stringify({ tools: surface }));
    expect(r.cost).toEqual({ bytes, tokens: Math.ceil(bytes / 4) });
    expect(r.context.surface?.map((t) => t.name)).toEqual(['call_tool', 'search_tools']);
    expect(r.context.tools).toHaveLength(45);
    expect(r.context.plain).toEqual(toolsListCost(model));
    // 45 tools past Cursor's 40 and lint.maxTools, but the hosts see two tools: no finding.
    const r5 = ['lint-too-many-tools', 'lint-list-too-large', 'lint-host-limit', 'lint-search-small'];
    expect(r.findings.filter((f) => r5.includes(f.code))).toEqual([]);
    expect(r.context.breaks).toEqual([]);
    expect(r.gate.find((g) => g.id === 'R5')).toMatchObject({
      status: 'PASS',
      reason:
        '45 tool(s), 45 searchable by default, found with search_tools and called with call_tool; tools/list ' +
        `lists those two for about ${r.cost.tokens} tokens, within review.maxListTokens (1000)`,
    });
  });

  it('warns when a small design uses search: the tools would fit listed as they are', () => {
    const { review: r } = review(manifest(3, 'discovery: search\n'));
    const small = r.findings.filter((f) => f.code === 'lint-search-small');
    expect(small.map((f) => f.message)).toEqual([
      'discovery: search serves a small design: its 3 default tools cost about ' +
        `${r.context.plain.tokens} tokens listed as they are, within review.maxListTokens (20000) and ` +
        'lint.maxTools (20)',
    ]);
    expect(r.gate.find((g) => g.id === 'R5')?.status).toBe('WARN');
    const larger = review(manifest(25, 'discovery: search\n')).review.findings;
    expect(larger.filter((f) => f.code === 'lint-search-small')).toEqual([]);
  });
  it('past the budget with discovery: search, names the two tools tools/list sends, not the tools they reach', () => {
    const { model, review: r } = review(manifest(45, 'discovery: search\nreview: { maxListTokens: 300 }\n'));
    const [call, search] = searchSurface(model).map((t) => Math.ceil(Buffer.byteLength(JSON.stringify(t)) / 4));
    expect(r.findings.filter((f) => f.code === 'lint-list-too-large')).toMatchObject([
      {
        message:
          `the default tools/list costs about ${r.cost.tokens} tokens (discovery: search: call_tool ${call}, ` +
          `search_tools ${search}), more than review.maxListTokens (300)`,
        hint:
          'search_tools and call_tool are all tools/list sends: raise review.maxListTokens to at least ' +
          `${r.cost.tokens}`,
        at: { pointer: '/discovery' },
      },
    ]);
    expect(r.gate.find((g) => g.id === 'R5')?.status).toBe('FAIL');
  });

  it('does not warn of a small design when its tools listed as they are would break a named host', () => {
    // 45 tools within lint.maxTools (60) and the budget, but past Cursor's 40: dropping search would fail R5.
    const cursor = review(manifest(45, 'discovery: search\nlint: { maxTools: 60 }\nreview: { hosts: [cursor] }\n'));
    expect(cursor.review.findings.filter((f) => f.code === 'lint-search-small')).toEqual([]);
    expect(cursor.review.gate.find((g) => g.id === 'R5')?.status).toBe('PASS');
    const openai = review(manifest(45, 'discovery: search\nlint: { maxTools: 60 }\nreview: { hosts: [openai] }\n'));
    expect(openai.review.findings.filter((f) => f.code === 'lint-search-small').map((f) => f.message)).toEqual([
      'discovery: search serves a small design: its 45 default tools cost about ' +
        `${openai.review.context.plain.tokens} tokens listed as they are, within review.maxListTokens (20000) and ` +
        'lint.maxTools (60), and every limit of review.hosts (openai)',
    ]);
    // A name OpenAI refuses is hidden behind search too.
    const dotted = review(manifest(3, 'discovery: search\nreview: { hosts: [openai] }\n', 1, 'v2.get_'));
    expect(dotted.review.findings.filter((f) => f.code === 'lint-search-small')).toEqual([]);
  });
});

describe('the heaviest schemas and a tool bigger than a page', () => {
  it('names the five heaviest input and output schemas, heaviest first, in bytes as tools/list sends them', () => {
    const { model, review: r } = review(manifest(7, '', 1));
    const wire = wireTools(model);
    const bytes = (name: string) => Buffer.byteLength(JSON.stringify(wire.find((t) => t.name === name)?.inputSchema));
    expect(r.context.schemas).toEqual(
      ['get_item_00', 'get_item_01', 'get_item_02', 'get_item_03', 'get_item_04'].map((tool) => ({
        tool,
        part: 'input',
        bytes: bytes(tool),
      })),
    );
    expect(r.context.schemas[0]?.bytes).toBe(46);
    expect(r.findings.filter((f) => f.code === 'lint-tool-too-large')).toEqual([]);
  });

  it('warns on R5 when one tool alone is more than a 1 MiB page', () => {
    const values = Array.from({ length: 50000 }, (_, i) => `"value-number-${String(i).padStart(6, '0')}"`);
    const big =
      '  get_everything:\n    title: Get everything\n    description: Return every value there is.\n' +
      '    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
      '    input: { type: object, additionalProperties: false, properties: ' +
      `{ v: { type: string, enum: [${values.join(', ')}] } } }\n`;
    const { review: r } = review(
      manifest(2, 'review: { maxListTokens: 1000000 }\n', 1).replace('tools:\n', `tools:\n${big}`),
    );
    const cost = r.context.tools.find((t) => t.name === 'get_everything')?.bytes;
    expect(cost).toBe(1100260);
    const finding = r.findings.find((f) => f.code === 'lint-tool-too-large');
    expect(finding?.message).toBe(
      `tool get_everything alone is ${cost} bytes in tools/list, more than a page's 1048576: it has a page of ` +
        'its own, and a client with a small buffer may not read it',
    );
    expect(r.context.schemas[0]).toEqual({ tool: 'get_everything', part: 'input', bytes: 1100092 });
    expect(r.gate.find((g) => g.id === 'R5')?.status).toBe('WARN');
  });
});

describe('the 10 MiB line of the official client', () => {
  /**
   * One tool whose tools/list page is `pageBytes` long, on no host but that client's. A manifest holds at most 8 MiB,
   * so nine properties share one 1 MiB description through a YAML alias; a tenth's description fills the rest.
   */
  function onePage(pageBytes: number) {
    const shared = Array.from({ length: 8 }, (_, i) => `        p${i + 1}: { type: string, description: *big }\n`);
    const tool = (fill: string) =>
      `mcpGen: 1\nserver: { name: big-api, version: 1.0.0 }\n` +
      'review: { maxListTokens: 10000000, hosts: [mcp-typescript-sdk] }\ntools:\n  get_all:\n    title: Get all\n' +
      '    description: Return everything.\n    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
      '    input:\n      type: object\n      additionalProperties: false\n      properties:\n' +
      `        p0: { type: string, description: &big ${'y'.repeat(1024 * 1024)} }\n${shared.join('')}` +
      `        pad: { type: string, description: ${fill} }\n`;
    const probe = review(tool('x')).review.cost.bytes;
    return review(tool('x'.repeat(pageBytes - probe + 1))).review;
  }
  const limit = 10 * 1024 * 1024;

  it('counts the response around a page: 100 bytes short of 10 MiB breaks the host, 1 KiB short does not', () => {
    const near = onePage(limit - 100);
    expect(near.cost.bytes).toBe(limit - 100);
    expect(near.findings.filter((f) => f.code === 'lint-host-limit').map((f) => f.message)).toEqual([
      'Clients on the official MCP TypeScript SDK (stdio) (mcp-typescript-sdk): a tools/list page is 10485660 ' +
        'bytes, and its response line up to 10486684: more than the 10485760 its client reads',
    ]);
    const room = onePage(limit - 1024);
    expect(room.cost.bytes).toBe(limit - 1024);
    expect(room.findings.filter((f) => f.code === 'lint-host-limit')).toEqual([]);
  });
});

describe('pruned schemas', () => {
  it('lists each tool schema that holds pruned objects, with the components they stood for', () => {
    const pruned = (name: string) =>
      `{ type: object, additionalProperties: true, description: "A ${name} object (schema pruned: see DESIGN.md)" }`;
    const text = manifest(2, '', 1).replace(
      '    input: { type: object, additionalProperties: false }\n',
      '    input: { type: object, additionalProperties: false }\n' +
        `    output: { type: object, properties: { b: ${pruned('wide')}, a: ${pruned('card')}, ` +
        `c: ${pruned('wide')} } }\n`,
    );
    const { review: r } = review(text);
    expect(r.context.pruned).toEqual([{ tool: 'get_item_00', part: 'output', components: ['card', 'wide'] }]);
  });
});
