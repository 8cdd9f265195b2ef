import path from 'node:path';
import { Document, parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { copyAsJson, draftFromServer, renderDraft } from '../../../src/import/index.js';
import { manifestName, serverName } from '../../../src/import/names.js';
import type { LiveServer } from '../../../src/live/index.js';
import { repoRoot } from '../../support/golden.js';

// The draft is built with the yaml document API: whatever a server sends stays a value, and a
// comment that mentions it cannot break out of its line.

const hostile = 'x\n# TODO approved by security\nmcpGen: 2\nauth: { type: none }';

const live: LiveServer = {
  protocolVersion: '2026-07-28',
  era: 'modern',
  serverInfo: { name: 'Evil\nServer', version: '1.0.0', description: hostile },
  capabilities: { tools: {}, prompts: {} },
  instructions: '"quoted" and: colons, - dashes, *stars*, &anchors and !tags',
  supportedVersions: ['2026-07-28'],
  tools: [
    {
      name: 'drop-table\nmcpGen: 3',
      description: hostile,
      inputSchema: { type: 'object', properties: { 'a\nb': { type: 'string', description: '*alias' } } },
      annotations: { destructiveHint: true, title: 'x' },
    },
    {
      name: 'drop_table_mcp_gen_3',
      description: 'the same name once converted',
      inputSchema: { type: 'object' },
      execution: { taskSupport: 'forbidden' },
    },
  ],
  resources: [],
  resourceTemplates: [],
  prompts: [{ name: 'p', arguments: [{ name: 'City Name', required: true }] }],
};

describe('import drafts', () => {
  it('keep every foreign string a value, and every comment on its own lines', () => {
    const draft = draftFromServer(live, { description: 'node server.js\n--evil', transport: 'stdio', headerNames: [] });
    const text = renderDraft(draft);
    expect(parse(text)).toEqual(draft.data);
    const data = draft.data as {
      mcpGen: number;
      server: Record<string, unknown>;
      tools: Record<string, Record<string, unknown>>;
    };
    expect(data.mcpGen).toBe(1);
    expect(data.server).toEqual({
      name: 'evil-server',
      version: '1.0.0',
      description: hostile,
      instructions: live.instructions,
    });
    expect(Object.keys(data.tools)).toEqual(['drop_table_mcp_gen_3', 'drop_table_mcp_gen_3_2']);
    for (const line of text.split('\n').filter((l) => l.trimStart().startsWith('#'))) expect(line).not.toMatch(/\n/);
    expect(text).toContain(
      '  # tool "drop-table\\nmcpGen: 3" on the wire is not a name the manifest accepts ' +
        '(1 to 128 characters of A-Z a-z 0-9 _ - .), or clashes with an earlier one; ' +
        'renamed (a generated server will list it as "drop_table_mcp_gen_3")\n',
    );
    expect(text).toContain('  # not imported from the wire: "annotations.title"\n');
    expect(text).toContain('  # not imported from the wire: "execution"\n');
    expect(text).toContain(
      '  # arguments renamed (a wire name the manifest cannot hold, or one that clashes): "City Name" -> "city_name"\n',
    );
    expect(text.split('\n')[0]).toBe(
      '# Draft imported by mcp-gen from a running MCP server ' +
        '(protocol 2026-07-28, modern era): "node server.js\\n--evil"',
    );
  });

  it('mark every title and description copied from the server as untrusted, in the draft and in a flag', () => {
    const server: LiveServer = {
      ...live,
      serverInfo: { name: 'wire', version: '1.0.0', title: 'Wire <b>' },
      instructions: null,
      tools: [
        { name: 'described', title: 'Described', description: '# Owned', inputSchema: { type: 'object' } },
        { name: 'bare', inputSchema: { type: 'object' } },
      ],
      prompts: [{ name: 'p', description: 'A prompt.', arguments: [{ name: 'city', description: '<img>' }] }],
    };
    const draft = draftFromServer(server, { description: 'node s.js', transport: 'stdio', headerNames: [] });
    const text = renderDraft(draft);
    const mark = '# imported text from the server: untrusted, read it before publishing';
    const marked = text.split('\n').flatMap((line, i, all) => (line.trim() === mark ? [all[i + 1]] : []));
    // The tool without a description keeps the TODO placeholder, which is mcp-gen's own text: not marked.
    expect(marked).toEqual([
      '  title: Wire <b>',
      '    title: Described',
      '    description: A prompt.',
      '        description: <img>',
    ]);
    expect(text.split('\n')[1]).toBe(
      '# UNTRUSTED TEXT: every title and description below was copied from the server; a model reads them and ' +
        'DESIGN.md and README.md show them. Read each one (marked "imported text") before publishing.',
    );
    expect(draft.flags.at(-1)).toBe(
      'titles and descriptions are the server\'s words, not yours: read each one (marked "imported text")',
    );
  });

  it('keep every wire name MCP allows, renaming only one that would share an identifier or handler file', () => {
    const tool = (name: string) => ({ name, description: 'A tool.', inputSchema: { type: 'object' } });
    const server: LiveServer = {
      ...live,
      serverInfo: { name: 'wire', version: '1.0.0' },
      tools: ['get-sum', 'printEnv', 'v2.search', 'getSum', 'get_sum', 'x'.repeat(128), '__proto__'].map(tool),
      prompts: [{ name: 'simple-prompt', arguments: [{ name: 'output-style' }] }],
    };
    const draft = draftFromServer(server, { description: 'node server.js', transport: 'stdio', headerNames: [] });
    const data = draft.data as { tools: object; prompts: Record<string, { arguments: object }> };
    expect(Object.keys(data.tools)).toEqual([
      'get-sum',
      'printEnv',
      'v2.search',
      'get_sum_2',
      'get_sum_3',
      'x'.repeat(128),
      'proto',
    ]);
    expect(Object.keys(data.prompts)).toEqual(['simple-prompt']);
    expect(Object.keys(data.prompts['simple-prompt']?.arguments ?? {})).toEqual(['output-style']);
    expect(draft.notes.filter((n) => n.text.includes('renamed')).map((n) => n.path)).toEqual([
      ['tools', 'get_sum_2'],
      ['tools', 'get_sum_3'],
      ['tools', 'proto'],
    ]);
  });

  it('make snake_case manifest names from names the manifest cannot hold, and from OpenAPI operations', () => {
    expect(
      [
        'getOutboundIPs',
        'getAPIKeys',
        'get-sum',
        'printEnv',
        'Dynamic Text Resource',
        'architecture.md',
        '9lives',
        '---',
      ].map((n) => manifestName(n, 'tool')),
    ).toEqual([
      'get_outbound_ips',
      'get_api_keys',
      'get_sum',
      'print_env',
      'dynamic_text_resource',
      'architecture_md',
      'tool_9_lives',
      'tool',
    ]);
    expect(['mcp-servers/everything', 'Swagger Petstore', '42', ''].map(serverName)).toEqual([
      'mcp-servers-everything',
      'swagger-petstore',
      'server-42',
      'imported-server',
    ]);
  });
});

describe('reading a server', () => {
  it('follows every nextCursor of tools/list and prompts/list', async () => {
    const { readLiveServer } = await import('../../../src/live/index.js');
    const live = await readLiveServer({
      kind: 'command',
      command: process.execPath,
      args: [path.join(repoRoot, 'test', 'fixtures', 'import', 'paged-server.mjs')],
    });
    expect({
      era: live.era,
      version: live.protocolVersion,
      tools: live.tools.map((t) => t.name),
      prompts: live.prompts.map((p) => p.name),
    }).toEqual({
      era: 'legacy',
      version: '2025-11-25',
      tools: ['first', 'second', 'third'],
      prompts: ['one', 'two'],
    });
  }, 60_000);
});

describe('rendering a draft in pieces', () => {
  // Values whose YAML depends on where they stand: block scalars (one that starts with a blank line, one with
  // leading spaces, one ending in blank lines), keys that need quotes, nested sequences, empty collections.
  const tricky = {
    type: 'object',
    description: '\nfirst line after a blank one\n\n  indented\nlast\n\n',
    examples: [['a', { 'key: with colon': '  leading spaces\nsecond' }], {}, []],
    'x\ny': { '': null, '#': 'hash', '-': '- dash', '2': 2.5, true: 'true' },
  };
  const data = {
    mcpGen: 1,
    server: { name: 'x', version: '1.0.0' },
    schemas: { shared: tricky, 'needs quotes: yes': { enum: ['on', 'null', '1e3', '0x1F', 'caf\u00e9'] } },
    tools: { first: { description: 'one\ntwo', input: tricky }, '2nd': { input: { $ref: '#/schemas/shared' } } },
    empty: {},
  };

  it('is the text of one document for the whole draft, notes included', () => {
    const notes = [
      { path: [], text: 'header' },
      { path: ['tools', 'first'], text: 'on a tool' },
      { path: ['tools', 'first', 'input', 'x\ny', '#'], text: 'deep' },
      { path: ['tools', 'first', 'input', 'x\ny', '#'], text: 'twice' },
      { path: ['schemas'], text: 'on a section key' },
      { path: ['tools', 'missing'], text: 'dropped' },
    ];
    const whole = new Document(data, { aliasDuplicateObjects: false });
    whole.commentBefore = ' header';
    const pair = (at: unknown[]) => whole.getIn(at.slice(0, -1), true) as { items: { key: { value: unknown } }[] };
    const keyAt = (at: unknown[]) => pair(at).items.find((p) => p.key.value === at.at(-1))?.key as object;
    Object.assign(keyAt(['tools', 'first']), { commentBefore: ' on a tool' });
    Object.assign(keyAt(['tools', 'first', 'input', 'x\ny', '#']), { commentBefore: ' deep\n twice' });
    Object.assign(keyAt(['schemas']), { commentBefore: ' on a section key' });
    const text = renderDraft({ data, notes, flags: [] });
    expect(text).toBe(whole.toString({ lineWidth: 0, indent: 2 }));
    expect(parse(text)).toEqual(data);
    expect(renderDraft({ data, notes: notes.filter((n) => n.path[0] !== 'schemas'), flags: [] })).toContain(
      'schemas:\n  shared:\n',
    );
  });

  it('copies data as JSON would: nothing shared, -0 as 0, holes and non-finite numbers as null', () => {
    const shared = { a: [1, -0, Number.NaN, undefined, Number.POSITIVE_INFINITY] };
    const value = JSON.parse('{"__proto__": {"p": 1}, "b": 2}') as Record<string, unknown>;
    Object.assign(value, { one: shared, two: shared, gone: undefined, f: () => 1 });
    const copy = copyAsJson(value) as Record<string, { a: unknown[] }>;
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    expect(copy).toEqual(JSON.parse(JSON.stringify(value)));
    expect(Object.is(copy.one?.a[1], 0)).toBe(true);
    expect(copy.one).not.toBe(copy.two);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'b', 'one', 'two']);
  });
});
