import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildGuarded, guardedEnv, tokens } from '../runtime/guarded.js';
import { buildBare, buildProto, meta, modernHeaders, protoKeys, toReply, type Reply } from './support.js';
import { wireCases } from './wire-cases.js';

// The web fetch handler every server with HTTP exports (`fetch` of src/generated/index.gen.ts), called in-process
// with web Requests: the same wire cases as the node:http server (wire-cases.ts), through the same endpoint code.

type FetchHandler = (request: Request, env?: Readonly<Record<string, unknown>>) => Promise<Response>;

const url = new URL('http://127.0.0.1:8787/mcp');
let proto: FetchHandler;
let bare: FetchHandler;
let logged = '';
const write = process.stderr.write.bind(process.stderr);

/** The fetch export of the project whose compiled entry is `entry` (dist/src/main.js). */
async function fetchOf(entry: string): Promise<FetchHandler> {
  const facade = path.join(path.dirname(entry), 'generated', 'index.gen.js');
  return ((await import(pathToFileURL(facade).href)) as { fetch: FetchHandler }).fetch;
}

/** A fetch handler of its own for `entry`'s server: its environment is read on its first request. */
async function freshFetchOf(entry: string): Promise<FetchHandler> {
  const generated = path.join(path.dirname(entry), 'generated');
  const { serveFetch } = (await import(pathToFileURL(path.join(generated, 'runtime', 'http-fetch.gen.js')).href)) as {
    serveFetch: (definition: unknown) => FetchHandler;
  };
  const { definition } = (await import(pathToFileURL(path.join(generated, 'server.gen.js')).href)) as {
    definition: unknown;
  };
  return serveFetch(definition);
}

beforeAll(async () => {
  [proto, bare] = await Promise.all([fetchOf(buildProto()), fetchOf(buildBare())]);
  // What the server logs, kept rather than printed: some cases assert it says nothing.
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logged += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
}, 120_000);

afterAll(() => {
  vi.restoreAllMocks();
  if (logged !== '') write(logged.slice(-2000));
});

const request = (body: unknown, headers: Record<string, string>): Request =>
  new Request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('the fetch handler', () => {
  wireCases(() => ({
    url,
    send: (req) => proto(req, protoKeys),
    post: async (body, headers) => toReply(await proto(request(body, headers), protoKeys)),
    postBare: async (body, headers) => toReply(await bare(request(body, headers), {})),
    call: async (method, params, id = 1) =>
      toReply(await proto(request({ jsonrpc: '2.0', id, method, params }, modernHeaders(method, params)), protoKeys)),
    postHost: async (host, body) => {
      const answer = await proto(request(body, { ...modernHeaders('tools/list'), host }), protoKeys);
      return { status: answer.status, text: await answer.text() };
    },
    stderr: () => logged,
  }));

  it('answers 413 for a body over the cap, and serves the next request', async () => {
    const big = await proto(
      request(`{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`, modernHeaders('tools/list')),
      protoKeys,
    );
    expect([big.status, await big.json()]).toEqual([
      413,
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Payload Too Large' } },
    ]);
    const list: Reply = await toReply(
      await proto(
        request(
          { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } },
          modernHeaders('tools/list'),
        ),
        protoKeys,
      ),
    );
    expect(list.status).toBe(200);
  });

  it('answers a body declared past the instance byte cap 413, not 503 busy', async () => {
    // 17 MiB: over the 4 MiB body cap and the 16 MiB of bodies the instance holds at once.
    const body = `{"pad":"${'x'.repeat(17 * 1024 * 1024 - 10)}"}`;
    const headers = { ...modernHeaders('tools/list'), 'content-length': String(body.length) };
    const answer = await proto(request(body, headers), protoKeys);
    expect([answer.status, answer.headers.get('connection'), answer.headers.get('retry-after')]).toEqual([
      413,
      'close',
      null,
    ]);
    expect(await answer.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Payload Too Large' },
    });
  });

  it('answers /healthz outside the MCP rules, and an unknown path 404', async () => {
    const health = await proto(new Request(new URL('/healthz', url)), protoKeys);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const other = await proto(new Request(new URL('/other', url), { method: 'POST' }), protoKeys);
    expect([other.status, await other.json()]).toEqual([
      404,
      { jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Not found' } },
    ]);
  });

  it('answers only localhost names unless MCP_GEN_HOSTS names more, which needs authorization', async () => {
    const deployed = (): Request => new Request('https://mcp.example.com/mcp', { method: 'GET' });
    const refused = await proto(deployed(), protoKeys);
    expect([refused.status, (await refused.json()).error.message]).toEqual([403, 'Invalid Host: mcp.example.com']);
    // Without auth, naming a public host is a start-up error: 503 until the environment is fixed, the reason logged.
    const before = logged.length;
    const open = await freshFetchOf(buildProto());
    const unstarted = await open(deployed(), { ...protoKeys, MCP_GEN_HOSTS: 'mcp.example.com' });
    expect([unstarted.status, unstarted.headers.get('retry-after'), await unstarted.json()]).toEqual([
      503,
      '1',
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Server unavailable: it failed to start' } },
    ]);
    expect(logged.slice(before)).toBe(
      'proto: failed to start: MCP_GEN_HOSTS is set but the server has no authorization; set auth in the manifest\n',
    );
  });
});

describe('the fetch handler with bearer authorization', () => {
  let guarded: FetchHandler;
  const env = { ...guardedEnv(''), MCP_GEN_HOSTS: 'mcp.example.com' };
  const metadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
  const rpc = (method: string, params: Record<string, unknown>, token?: string): Request =>
    new Request('https://mcp.example.com/mcp', {
      method: 'POST',
      headers: {
        ...modernHeaders(method, params),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });

  beforeAll(async () => {
    guarded = await freshFetchOf(buildGuarded('runtime-bearer-fetch'));
  }, 120_000);

  it('challenges a request without a token, naming metadata on the host MCP_GEN_HOSTS names', async () => {
    const answer = await guarded(rpc('tools/list', { _meta: meta() }), env);
    expect([answer.status, answer.headers.get('www-authenticate'), await answer.json()]).toEqual([
      401,
      `Bearer resource_metadata="${metadata}"`,
      { error: 'invalid_token', error_description: 'Missing Authorization header' },
    ]);
    const document = await guarded(new Request(metadata), env);
    expect([document.status, await document.json()]).toEqual([
      200,
      {
        resource: 'https://mcp.example.com/mcp',
        scopes_supported: ['items.read', 'items.write'],
        bearer_methods_supported: ['header'],
      },
    ]);
  });

  it('answers a wrong token 401 and a missing scope 403, and serves the right token', async () => {
    const wrong = await guarded(rpc('tools/list', { _meta: meta() }, `${tokens.alice}x`), env);
    expect([wrong.status, await wrong.json()]).toEqual([
      401,
      { error: 'invalid_token', error_description: 'Invalid token' },
    ]);
    const params = { name: 'start_draft', arguments: { name: 'x' }, _meta: meta() };
    const scoped = await guarded(rpc('tools/call', params, tokens.bob), env);
    expect([scoped.status, scoped.headers.get('www-authenticate')]).toEqual([
      403,
      'Bearer error="insufficient_scope", error_description="Insufficient ' +
        `scope", scope="items.write", resource_metadata="${metadata}"`,
    ]);
    const read = await toReply(
      await guarded(rpc('tools/call', { name: 'read_item', arguments: { id: '7' }, _meta: meta() }, tokens.bob), env),
    );
    expect([read.status, read.body.result.content]).toEqual([
      200,
      [{ type: 'text', text: 'item 7 read by bob with scopes items.read' }],
    ]);
  });

  it("names the deployment's host in approval links, whatever host the first request named", async () => {
    // A fresh isolate whose first request comes from loopback: it must not choose the origin of every link.
    const open = await freshFetchOf(buildGuarded('runtime-bearer-fetch'));
    expect((await open(new Request('http://localhost:1/mcp', { method: 'GET' }), env)).status).toBe(405);
    const params = { name: 'delete_item', arguments: { id: 'item-1' }, _meta: meta() };
    const asked = await toReply(await open(rpc('tools/call', params, tokens.alice), env));
    const link = asked.body.result._meta['mcp-gen/approval'].url as string;
    expect(link).toMatch(/^https:\/\/mcp\.example\.com\/approvals\/[A-Za-z0-9_-]{22}$/);
  });

  it('still refuses a host that MCP_GEN_HOSTS does not name', async () => {
    const other = await guarded(new Request('https://other.example.com/mcp', { method: 'POST' }), env);
    expect([other.status, (await other.json()).error.message]).toEqual([403, 'Invalid Host: other.example.com']);
  });
});
