import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../support/golden.js';
import { metaOf, startRawStdio, type RawStdio } from '../../support/servers.js';
import { compileExample, connectStdio, textOf } from './support.js';

// examples/demo: the lesson's demo server (add, config://app, code_review), compiled from the committed
// project and driven over stdio by the official client pinned to 2026-07-28.

let entry = '';
let client: Client;
let raw: RawStdio;

const config = 'name=demo-server\nversion=0.2.0\nprotocol=2026-07-28\ntransport=stdio\nauth=none\n';

beforeAll(async () => {
  entry = compileExample('demo', 'demo');
  client = await connectStdio(entry, { answer: { action: 'decline' }, seen: [] });
  raw = startRawStdio(entry);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await raw?.close();
});

describe('examples/demo over stdio', () => {
  it('answers server/discover with exactly the generated discovery contract', async () => {
    const { registry } = (await import(path.join(path.dirname(entry), 'generated', 'registry.gen.js'))) as {
      registry: { discover: Record<string, unknown> };
    };
    const answer = await raw.request({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: metaOf() },
    });
    expect(answer.result).toEqual(registry.discover);
    expect(answer.result).toMatchObject({
      // legacy: serve: 2025-11-25 is answered too, through initialize.
      supportedVersions: ['2026-07-28', '2025-11-25'],
      resultType: 'complete',
      ttlMs: 30000,
      cacheScope: 'private',
    });
    expect(
      (answer.result as { _meta: Record<string, { name: string; version: string }> })._meta[
        'io.modelcontextprotocol/serverInfo'
      ],
    ).toMatchObject({ name: 'demo-server', version: '0.2.0' });
  });

  it('lists one read-only tool, add, with bounded integer inputs and a sum output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['add']);
    // One inline SVG icon, exactly as the manifest declares it.
    const addIconSrc = parse(readFileSync(path.join(repoRoot, 'examples', 'demo', 'mcp.yaml'), 'utf8')).tools.add
      .icons[0].src;
    expect(tools[0]?.icons).toEqual([{ src: addIconSrc, mimeType: 'image/svg+xml', sizes: ['any'] }]);
    expect(Buffer.from(String(tools[0]?.icons?.[0]?.src).split(',')[1] ?? '', 'base64').toString()).toMatch(/^<svg /);
    expect(tools[0]).toMatchObject({
      title: 'Add two integers',
      annotations: { readOnlyHint: true, openWorldHint: false },
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['a', 'b'],
        properties: {
          a: { type: 'integer', minimum: -1000000000, maximum: 1000000000 },
          b: { type: 'integer', minimum: -1000000000, maximum: 1000000000 },
        },
      },
      outputSchema: { type: 'object', required: ['sum'], properties: { sum: { type: 'integer' } } },
    });
  });

  it('add returns the sum as structuredContent plus the same JSON as text', async () => {
    const result = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(result.content).toEqual([{ type: 'text', text: '{"sum":42}' }]);
    const negative = await client.callTool({ name: 'add', arguments: { a: -1000000000, b: 999999993 } });
    expect(negative.structuredContent).toEqual({ sum: -7 });
    expect(textOf(negative)).toBe('{"sum":-7}');
  });

  it('add refuses out-of-range and fractional numbers before the handler runs', async () => {
    const result = await client.callTool({ name: 'add', arguments: { a: 1000000001, b: 1.5 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Input validation error: Invalid arguments for tool add: data/a must be <= 1000000000, data/b must be integer',
    );
  });

  it('lists and reads the config://app resource as plain text', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: 'config://app',
        name: 'app_config',
        title: 'App configuration',
        description: "The demo server's configuration as plain text, one key=value pair per line.",
        mimeType: 'text/plain',
        annotations: { audience: ['user', 'assistant'], priority: 0.5 },
        size: 77,
      },
    ]);
    const read = await client.readResource({ uri: 'config://app' });
    expect(read.contents).toEqual([{ uri: 'config://app', mimeType: 'text/plain', text: config }]);
    // The declared size is the byte length of what the handler returns.
    expect(Buffer.byteLength(config)).toBe(77);
  });

  it('renders the code_review prompt from its fixed message', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => `${a.name}:${String(a.required)}`)])).toEqual([
      ['code_review', ['code:true', 'language:true']],
    ]);
    const prompt = await client.getPrompt({
      name: 'code_review',
      arguments: { language: 'python', code: 'def f(x):\n    return x+1' },
    });
    expect(prompt.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            'Please review this python code. Point out bugs, unclear names and ' +
            'missing tests, most important first.\n\ndef f(x):\n    return x+1',
        },
      },
    ]);
  });

  it('serves 2025-11-25 initialize via the legacy adapter; a 2026-07-28 request naming it gets -32022', async () => {
    const unsupported = {
      code: -32022,
      message: 'Unsupported protocol version: 2025-11-25',
      data: { supported: ['2026-07-28', '2025-11-25'], requested: '2025-11-25' },
    };
    const named = await raw.request({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: { _meta: metaOf('2025-11-25') },
    });
    expect(named.error).toEqual(unsupported);
    const legacy = startRawStdio(entry);
    try {
      const answer = await legacy.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1.0.0' } },
      });
      expect(answer.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'demo-server' } });
    } finally {
      await legacy.close();
    }
  });

  // The entry refused --help as an unknown argument (exit 1); it prints its usage and starts nothing.
  it('--help and -h print the usage on stdout and exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const run = spawnSync(process.execPath, [entry, flag], {
        encoding: 'utf8',
        timeout: 30_000,
        env: { PATH: process.env.PATH ?? '' },
      });
      expect([run.status, run.stdout.split('\n')[0], run.stderr]).toEqual([
        0,
        'Usage: node dist/server.mjs [--transport stdio|http] [--host HOST] [--port PORT]',
        '',
      ]);
    }
  });

  it('writes only JSON-RPC to stdout', () => {
    expect(raw.lines.length).toBeGreaterThan(0);
    expect(raw.lines.every((line) => (JSON.parse(line) as { jsonrpc: string }).jsonrpc === '2.0')).toBe(true);
  });
});
