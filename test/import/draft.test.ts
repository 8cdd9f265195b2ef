import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { draftFromServer, renderDraft } from '../../src/import/index.js';
import { manifestName, serverName } from '../../src/import/names.js';
import type { LiveServer } from '../../src/live/index.js';
import { repoRoot } from '../support/golden.js';

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
    { name: 'drop-table\nmcpGen: 3', description: hostile, inputSchema: { type: 'object', properties: { 'a\nb': { type: 'string', description: '*alias' } } }, annotations: { destructiveHint: true, title: 'x' } },
    { name: 'drop_table_mcp_gen_3', description: 'the same name once converted', inputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' } },
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
    const data = draft.data as { mcpGen: number; server: Record<string, unknown>; tools: Record<string, Record<string, unknown>> };
    expect(data.mcpGen).toBe(1);
    expect(data.server).toEqual({ name: 'evil-server', version: '1.0.0', description: hostile, instructions: live.instructions });
    expect(Object.keys(data.tools)).toEqual(['drop_table_mcp_gen_3', 'drop_table_mcp_gen_3_2']);
    for (const line of text.split('\n').filter((l) => l.trimStart().startsWith('#'))) expect(line).not.toMatch(/\n/);
    expect(text).toContain('  # tool "drop-table\\nmcpGen: 3" on the wire is not a manifest name; renamed (a generated server will list it as "drop_table_mcp_gen_3")\n');
    expect(text).toContain('  # not imported from the wire: "annotations.title"\n');
    expect(text).toContain('  # not imported from the wire: "execution"\n');
    expect(text).toContain('  # arguments renamed to manifest names: "City Name" -> "city_name"\n');
    expect(text.split('\n')[0]).toBe('# Draft imported by mcp-gen from a running MCP server (protocol 2026-07-28, modern era): "node server.js\\n--evil"');
  });

  it('make manifest names from wire names', () => {
    expect(['getOutboundIPs', 'getAPIKeys', 'get-sum', 'printEnv', 'Dynamic Text Resource', 'architecture.md', '9lives', '---'].map((n) => manifestName(n, 'tool'))).toEqual([
      'get_outbound_ips',
      'get_api_keys',
      'get_sum',
      'print_env',
      'dynamic_text_resource',
      'architecture_md',
      'tool_9_lives',
      'tool',
    ]);
    expect(['mcp-servers/everything', 'Swagger Petstore', '42', ''].map(serverName)).toEqual(['mcp-servers-everything', 'swagger-petstore', 'server-42', 'imported-server']);
  });
});

describe('reading a server', () => {
  it('follows every nextCursor of tools/list and prompts/list', async () => {
    const { readLiveServer } = await import('../../src/live/index.js');
    const live = await readLiveServer({ kind: 'command', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'import', 'paged-server.mjs')] });
    expect({ era: live.era, version: live.protocolVersion, tools: live.tools.map((t) => t.name), prompts: live.prompts.map((p) => p.name) }).toEqual({
      era: 'legacy',
      version: '2025-11-25',
      tools: ['first', 'second', 'third'],
      prompts: ['one', 'two'],
    });
  }, 60_000);
});
