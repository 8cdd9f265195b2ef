import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleDir } from '../support/examples.js';
import { repoRoot } from '../support/golden.js';
import { compileProject, metaOf, startRawStdio, type RawStdio } from '../support/servers.js';

let entry = '';

beforeAll(() => {
  entry = compileProject(exampleDir('notes'), path.join(repoRoot, '.test-out', 'stdio-notes'));
});

// The committed notes example, compiled as a user would, started over stdio.
describe('a generated server over stdio', () => {
  let raw: RawStdio;
  beforeAll(() => {
    raw = startRawStdio(entry);
  });
  afterAll(async () => {
    expect(await raw.close()).toBe(0);
  });

  it('answers server/discover with the manifest versions, capabilities, instructions and cache fields', async () => {
    const answer = await raw.request({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: metaOf() },
    });
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        // notes serves 2025-11-25 through its legacy adapter, so it lists that revision too.
        supportedVersions: ['2026-07-28', '2025-11-25'],
        capabilities: {
          completions: {},
          tools: { listChanged: false },
          resources: { listChanged: false },
          prompts: { listChanged: false },
        },
        instructions: 'Search before you create. Deleting asks the user first.',
        resultType: 'complete',
        ttlMs: 300000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'notes', title: 'Team Notes', version: '0.3.0' } },
      },
    });
  });

  it('lists tools in sorted order with cache fields', async () => {
    const answer = await raw.request({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: metaOf() } });
    const result = answer.result as {
      tools: { name: string }[];
      ttlMs: number;
      cacheScope: string;
      resultType: string;
    };
    expect(result.tools.map((t) => t.name)).toEqual(['publish_note_draft', 'search_notes', 'start_note_draft']);
    expect([result.resultType, result.ttlMs, result.cacheScope]).toEqual(['complete', 300000, 'public']);
  });

  it("answers a tools/call with the handler's result; the default limit applies", async () => {
    const answer = await raw.request({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search_notes', arguments: { query: 'x' }, _meta: metaOf() },
    });
    expect(answer.result).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: '{"notes":[]}' }],
      structuredContent: { notes: [] },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'notes', title: 'Team Notes', version: '0.3.0' } },
    });
  });

  it('writes only JSON-RPC to stdout', () => {
    expect(raw.lines.every((line) => JSON.parse(line).jsonrpc === '2.0')).toBe(true);
  });
});

describe('the official client over stdio (pinned to 2026-07-28)', () => {
  it('lists and calls', async () => {
    const client = new Client(
      { name: 'test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry], stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'publish_note_draft',
        'search_notes',
        'start_note_draft',
      ]);
      const result = await client.callTool({ name: 'start_note_draft', arguments: { title: 'x' } });
      expect(result.isError).not.toBe(true);
      expect((result.structuredContent as { draft?: unknown } | undefined)?.draft).toMatch(/^h1\./);
      expect(
        (await client.getPrompt({ name: 'summarize_note', arguments: { note_id: 'n1', tone: 'formal' } })).messages,
      ).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize note n1 in a formal tone.' } }]);
    } finally {
      await client.close();
    }
  });
});

describe('the report and the server cannot drift', () => {
  it('the discovery contract in the registry is what the live server answers', async () => {
    const { registry } = (await import(
      path.join(repoRoot, '.test-out', 'stdio-notes', 'src', 'generated', 'registry.gen.js')
    )) as { registry: { discover: unknown } };
    const raw = startRawStdio(entry);
    try {
      const answer = await raw.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: metaOf() },
      });
      expect(answer.result).toEqual(registry.discover);
    } finally {
      await raw.close();
    }
  });
});
