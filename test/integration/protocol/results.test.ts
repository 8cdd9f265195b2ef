import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildProto,
  call,
  meta,
  modernHeaders,
  post,
  protoInfo,
  protoKeys,
  startHttp,
  version,
  type HttpChild,
} from './support.js';

// The shape of results from a generated server (proto fixture) over HTTP: raw JSON-RPC, plus the
// official client pinned to 2026-07-28.

let server: HttpChild;

beforeAll(async () => {
  server = await startHttp(buildProto(), protoKeys);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const result = async (method: string, params: Record<string, unknown> = {}) => {
  const answer = await call(server.url, method, { ...params, _meta: meta() });
  expect(answer.status).toBe(200);
  return answer.body.result as Record<string, any>;
};

const errorOf = async (method: string, params: Record<string, unknown>) => {
  const answer = await call(server.url, method, { ...params, _meta: meta() }, 5);
  return { status: answer.status, body: answer.body };
};

describe('results', () => {
  it('carries resultType "complete" on every result', async () => {
    const results = await Promise.all([
      result('server/discover'),
      result('tools/list'),
      result('tools/call', { name: 'echo', arguments: { text: 'a' } }),
      result('tools/call', { name: 'bad_output', arguments: {} }),
      result('resources/list'),
      result('resources/templates/list'),
      result('resources/read', { uri: 'proto://items/3' }),
      result('prompts/list'),
      result('prompts/get', { name: 'greet', arguments: { name: 'x' } }),
    ]);
    expect(results.map((r) => r.resultType)).toEqual(Array(9).fill('complete'));
  });

  it('lists tools sorted by name, with the manifest ttlMs and cacheScope', async () => {
    const list = await result('tools/list');
    expect(list.tools.map((t: { name: string }) => t.name)).toEqual([
      'bad_output',
      'echo',
      'explode',
      'open_draft',
      'open_flash',
      'remove_note',
      'use_draft',
      'use_flash',
    ]);
    expect([list.ttlMs, list.cacheScope, list.nextCursor]).toEqual([45000, 'private', undefined]);
  });

  it('lists prompts (and their arguments) sorted by name, with ttlMs and cacheScope', async () => {
    const list = await result('prompts/list');
    expect(list).toEqual({
      prompts: [
        { name: 'brief', description: 'A prompt without arguments.', arguments: [] },
        {
          name: 'greet',
          description: 'Greets someone.',
          arguments: [
            { name: 'mood', description: 'How they feel', required: false },
            { name: 'name', description: 'Who to greet', required: true },
          ],
        },
      ],
      resultType: 'complete',
      ttlMs: 45000,
      cacheScope: 'private',
      _meta: protoInfo,
    });
  });

  it('lists resources and templates sorted by name, with ttlMs and cacheScope', async () => {
    const resources = await result('resources/list');
    expect(resources.resources.map((r: { name: string }) => r.name)).toEqual(['changelog', 'readme']);
    expect([resources.ttlMs, resources.cacheScope]).toEqual([45000, 'private']);
    const templates = await result('resources/templates/list');
    expect(templates.resourceTemplates).toEqual([
      { name: 'item', uriTemplate: 'proto://items/{id}', description: 'One item.', mimeType: 'text/plain' },
    ]);
    expect([templates.ttlMs, templates.cacheScope]).toEqual([45000, 'private']);
    // A read carries the resource's own cache policy (readme: 1 s, public).
    expect(await result('resources/read', { uri: 'proto://readme' })).toEqual({
      contents: [{ uri: 'proto://readme', mimeType: 'text/plain', text: 'Read me first.' }],
      resultType: 'complete',
      ttlMs: 1000,
      cacheScope: 'public',
      _meta: protoInfo,
    });
  });

  it('returns tools/call and prompts/get results without cache fields', async () => {
    const tool = await result('tools/call', { name: 'echo', arguments: { text: 'a' } });
    const prompt = await result('prompts/get', { name: 'brief' });
    expect(['ttlMs' in tool, 'cacheScope' in tool, 'ttlMs' in prompt, 'cacheScope' in prompt]).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('answers bad tool input with isError naming the offending field', async () => {
    expect(await result('tools/call', { name: 'echo', arguments: { text: 'hi', count: 9 } })).toEqual({
      content: [
        { type: 'text', text: 'Input validation error: Invalid arguments for tool echo: data/count must be <= 5' },
      ],
      isError: true,
      resultType: 'complete',
      _meta: protoInfo,
    });
    const missing = await result('tools/call', { name: 'echo', arguments: { count: 2 } });
    expect(missing.content).toEqual([
      {
        type: 'text',
        text: "Input validation error: Invalid arguments for tool echo: data must have required property 'text'",
      },
    ]);
    expect(missing.isError).toBe(true);
  });

  it('answers output that does not match the output schema with isError', async () => {
    expect(await result('tools/call', { name: 'bad_output', arguments: {} })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Output validation error: Invalid structured content for tool bad_output: data/n must be integer',
        },
      ],
      isError: true,
      resultType: 'complete',
      _meta: protoInfo,
    });
  });

  it('returns structuredContent plus a text copy of it', async () => {
    expect(await result('tools/call', { name: 'echo', arguments: { text: 'ab', count: 2 } })).toEqual({
      content: [{ type: 'text', text: '{"text":"abab","count":2}' }],
      structuredContent: { text: 'abab', count: 2 },
      resultType: 'complete',
      _meta: protoInfo,
    });
  });

  it('answers a handler that throws with a generic isError; the details and the stack go to stderr only', async () => {
    const answer = await result('tools/call', { name: 'explode', arguments: {} });
    expect(answer).toEqual({
      content: [{ type: 'text', text: 'The tool "explode" failed. Details were logged on the server.' }],
      isError: true,
      resultType: 'complete',
      _meta: protoInfo,
    });
    expect(JSON.stringify(answer)).not.toMatch(/kaboom|hunter2|\bat /);
    const deadline = Date.now() + 30_000;
    while (!server.stderr().includes('at explode') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.stderr()).toMatch(
      new RegExp(
        String.raw`tool "explode" failed: Error: kaboom: the database password is hunter2\n {4}` +
          String.raw`at explodeHandler \(file:///.*/handlers/tools/explode\.js:\d+:\d+\)\n`,
      ),
    );
  });

  it('answers resources/read of an unknown URI with -32602 and the URI in data', async () => {
    expect(await errorOf('resources/read', { uri: 'proto://nowhere' })).toEqual({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32602, message: 'Resource not found: proto://nowhere', data: { uri: 'proto://nowhere' } },
      },
    });
    // A template match whose handler says "no such item" is the same error.
    expect((await errorOf('resources/read', { uri: 'proto://items/missing' })).body.error).toEqual({
      code: -32602,
      message: 'Resource not found: proto://items/missing',
      data: { uri: 'proto://items/missing' },
    });
  });

  it('answers tools/call of an unknown tool as the SDK does, whether Mcp-Name names one of ours or not', async () => {
    // A call naming one of our tools gets a server with only that tool; any other name gets every tool.
    // An unknown name must get the same answer either way, and an encoded Mcp-Name must still work.
    expect(await errorOf('tools/call', { name: 'no_such_tool', arguments: {} })).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'Tool no_such_tool not found' } },
    });
    const encoded = {
      ...modernHeaders('tools/call', { name: 'echo' }),
      'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=`,
    };
    const params = { name: 'echo', arguments: { text: 'via base64' }, _meta: meta() };
    const answer = await post(server.url, { jsonrpc: '2.0', id: 6, method: 'tools/call', params }, encoded);
    expect([answer.status, answer.body.result?.structuredContent]).toEqual([200, { text: 'via base64', count: 1 }]);
    const plain = await post(
      server.url,
      { jsonrpc: '2.0', id: 6, method: 'tools/call', params },
      modernHeaders('tools/call', params),
    );
    expect(answer.body).toEqual(plain.body);
  });

  it('answers prompts/get without a required argument with -32602', async () => {
    expect(await errorOf('prompts/get', { name: 'greet', arguments: { mood: 'fine' } })).toEqual({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32602, message: "Invalid arguments for prompt greet: data must have required property 'name'" },
      },
    });
  });

  it('renders a prompt with fixed messages from its arguments (a missing optional one becomes empty)', async () => {
    expect(await result('prompts/get', { name: 'greet', arguments: { name: 'Ann', mood: 'fine' } })).toEqual({
      description: 'Greets someone.',
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ann, who feels fine.' } }],
      resultType: 'complete',
      _meta: protoInfo,
    });
    expect((await result('prompts/get', { name: 'greet', arguments: { name: 'Bo' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Say hello to Bo, who feels .' } },
    ]);
  });
});

describe('the official client over HTTP (pinned to 2026-07-28)', () => {
  it('discovers, lists, calls, reads and gets prompts', async () => {
    const client = new Client(
      { name: 'protocol-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: version } } },
    );
    await client.connect(new StreamableHTTPClientTransport(server.url));
    try {
      expect(client.getServerVersion()).toEqual({ name: 'proto', title: 'Protocol fixture', version: '2.1.0' });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'bad_output',
        'echo',
        'explode',
        'open_draft',
        'open_flash',
        'remove_note',
        'use_draft',
        'use_flash',
      ]);
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'yo', count: 3 } });
      expect([echo.structuredContent, echo.isError]).toEqual([{ text: 'yoyoyo', count: 3 }, undefined]);
      expect((await client.readResource({ uri: 'proto://items/42' })).contents).toEqual([
        { uri: 'proto://items/42', mimeType: 'text/plain', text: 'Item 42' },
      ]);
      expect((await client.getPrompt({ name: 'brief' })).messages).toEqual([
        { role: 'assistant', content: { type: 'text', text: 'Be brief.' } },
      ]);
    } finally {
      await client.close();
    }
  });
});
