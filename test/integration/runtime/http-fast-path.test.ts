import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGuarded, guardedEnv, tokens } from './guarded.js';
import {
  generateAndCompile,
  envelope,
  limits,
  repoRoot,
  startHttpServer,
  version,
  type RunningServer,
} from './harness.js';
import { handlers, manifest } from './http-fast-path-project.js';

// The HTTP fast path (http-fast.gen.ts) against the SDK's per-request path, on two copies of one generated server:
// one as shipped, one with MCP_GEN_HTTP_FAST_PATH=off. For every request of the corpus both give the same status,
// the same headers (but Date) and byte-identical bodies; the corpus says which requests the fast path takes.

/** One raw exchange, every byte kept. */
interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

const modern = (name: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': version,
  'mcp-method': 'tools/call',
  'mcp-name': name,
});

/** POSTs `body` (a string as is, anything else as JSON) with exactly `headers`; `abort` closes the connection. */
function post(url: URL, headers: Record<string, string>, body: unknown): { done: Promise<Raw>; abort: () => void } {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': String(bytes.length) } });
  const done = new Promise<Raw>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer in time')), limits.requestMs);
    req.on('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
  });
  req.end(bytes);
  return { done, abort: () => req.destroy() };
}

/** A tools/call body with the modern envelope. */
const call = (
  id: unknown,
  name: string,
  args: unknown,
  meta: Record<string, unknown> = {},
): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: { ...envelope({}), ...meta } },
});

/** The corpus: name, headers, body, and whether the fast path takes it. */
const corpus: readonly (readonly [string, Record<string, string>, unknown, boolean])[] = [
  ['valid call', modern('add'), call(1, 'add', { a: 1, b: 2 }), true],
  ['wrong argument types', modern('add'), call(2, 'add', { a: 'x', b: 2 }), true],
  ['missing argument', modern('add'), call(3, 'add', { a: 1 }), true],
  ['unknown tool', modern('nope'), call(4, 'nope', {}), false],
  ['Mcp-Name other than params.name', modern('add'), call(5, 'boom', {}), false],
  ['Mcp-Name in base64', { ...modern('add'), 'mcp-name': '=?base64?YWRk?=' }, call(6, 'add', { a: 1, b: 1 }), false],
  ['Mcp-Name absent', { ...modern('add'), 'mcp-name': '' }, call(7, 'add', { a: 1, b: 1 }), false],
  [
    'older MCP-Protocol-Version',
    { ...modern('add'), 'mcp-protocol-version': '2025-11-25' },
    call(8, 'add', { a: 1, b: 1 }),
    false,
  ],
  [
    'unknown MCP-Protocol-Version',
    { ...modern('add'), 'mcp-protocol-version': '2099-01-01' },
    call(9, 'add', { a: 1, b: 1 }),
    false,
  ],
  ['no MCP-Protocol-Version', { ...modern('add'), 'mcp-protocol-version': '' }, call(10, 'add', { a: 1, b: 1 }), false],
  [
    'Mcp-Method other than the body',
    { ...modern('add'), 'mcp-method': 'tools/list' },
    call(11, 'add', { a: 1, b: 1 }),
    false,
  ],
  ['no Accept', { ...modern('add'), accept: '' }, call(12, 'add', { a: 2, b: 2 }), true],
  ['text/plain body', { ...modern('add'), 'content-type': 'text/plain' }, call(13, 'add', { a: 1, b: 1 }), false],
  ['handler throws', modern('boom'), call(14, 'boom', {}), true],
  ['output fails its schema', modern('badout'), call(15, 'badout', {}), true],
  ['timeout', modern('slow'), call(16, 'slow', {}), true],
  ['string id', modern('add'), call('abc', 'add', { a: 5, b: 6 }), true],
  ['id 0', modern('add'), call(0, 'add', { a: 0, b: 0 }), true],
  ['large numeric id', modern('add'), call(9_007_199_254_740_991, 'add', { a: 1, b: 1 }), true],
  ['fractional id', modern('add'), call(1.5, 'add', { a: 1, b: 1 }), false],
  ['null id', modern('add'), call(null, 'add', { a: 1, b: 1 }), false],
  ['batch', modern('add'), [call(17, 'add', { a: 1, b: 1 })], false],
  ['notification', modern('add'), { ...call(0, 'add', { a: 1, b: 1 }), id: undefined }, false],
  [
    'envelope without capabilities',
    modern('add'),
    call(18, 'add', { a: 1, b: 1 }, { 'io.modelcontextprotocol/clientCapabilities': undefined }),
    false,
  ],
  [
    'envelope of an older version',
    modern('add'),
    call(19, 'add', { a: 1, b: 1 }, { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
    false,
  ],
  ['progress token', modern('add'), call(20, 'add', { a: 1, b: 1 }, { progressToken: 't' }), false],
  ['log level', modern('add'), call(21, 'add', { a: 1, b: 1 }, { 'io.modelcontextprotocol/logLevel': 'debug' }), false],
  [
    'an MRTR retry',
    modern('add'),
    {
      ...call(22, 'add', { a: 1, b: 1 }),
      params: { ...(call(0, 'add', { a: 1, b: 1 }).params as object), requestState: 'x' },
    },
    false,
  ],
  ['arguments not an object', modern('add'), call(23, 'add', [1, 2]), true],
  ['no JSON', modern('add'), '{"jsonrpc":', false],
];

let entry: string;
let fast: RunningServer;
let sdk: RunningServer;

beforeAll(async () => {
  const manifestPath = path.join(repoRoot, '.test-out', 'runtime-fast-path.yaml');
  mkdirSync(path.dirname(manifestPath), { recursive: true });
  writeFileSync(manifestPath, manifest);
  entry = generateAndCompile(manifestPath, 'runtime-fast-path', handlers);
  [fast, sdk] = await Promise.all([
    startHttpServer(entry, {}),
    startHttpServer(entry, { MCP_GEN_HTTP_FAST_PATH: 'off' }),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([fast?.stop(), sdk?.stop()]);
}, 60_000);

/** The headers that must agree: all but Date. */
const comparable = (raw: Raw): Record<string, unknown> => {
  const { date: _date, ...rest } = raw.headers;
  return rest;
};

describe('the HTTP fast path', () => {
  it('takes exactly the plain calls of the corpus', async () => {
    const generated = path.join(path.dirname(entry), 'generated');
    const fastPath = await import(pathToFileURL(path.join(generated, 'runtime', 'http-fast.gen.js')).href);
    const { registry } = await import(pathToFileURL(path.join(generated, 'registry.gen.js')).href);
    const tools = fastPath.plainTools(registry);
    for (const [name, headers, body, taken] of corpus) {
      const sent = new Headers(Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== '')));
      const parsed = typeof body === 'string' ? undefined : JSON.parse(JSON.stringify(body));
      expect([name, fastPath.plainCall(sent, parsed, tools, undefined) !== undefined]).toEqual([name, taken]);
    }
  });

  it('answers every request of the corpus with the status, headers and bytes of the SDK path', async () => {
    for (const [name, headers, body] of corpus) {
      const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
      const [a, b] = await Promise.all([post(fast.url, sent, body).done, post(sdk.url, sent, body).done]);
      expect({ name, status: a.status, headers: comparable(a), body: a.body }).toEqual({
        name,
        status: b.status,
        headers: comparable(b),
        body: b.body,
      });
    }
  }, 120_000);

  it('answers two concurrent calls with the same id on two connections each with its own result', async () => {
    const both = async (url: URL): Promise<string[]> => {
      const first = post(url, modern('later'), call(7, 'later', { tag: 'first', ms: 300 })).done;
      const second = post(url, modern('later'), call(7, 'later', { tag: 'second', ms: 50 })).done;
      return (await Promise.all([first, second])).map((raw) => `${raw.status} ${raw.body}`);
    };
    const [a, b] = await Promise.all([both(fast.url), both(sdk.url)]);
    expect(a).toEqual(b);
    expect(JSON.parse(a[0]?.slice(4) ?? '').result.content).toEqual([{ type: 'text', text: 'first' }]);
    expect(JSON.parse(a[1]?.slice(4) ?? '').result.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(JSON.parse(a[1]?.slice(4) ?? '').id).toBe(7);
  }, 60_000);

  it('aborts ctx.signal within 100 ms of the client going away, by a cancel of the pinned call', async () => {
    const pending = post(fast.url, modern('wait'), call(1, 'wait', { tag: 'gone' }));
    pending.done.catch(() => undefined);
    for (const end = Date.now() + 30_000; !fast.stderr().includes('started gone') && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 5));
    const closedAt = Date.now();
    pending.abort();
    let match: RegExpExecArray | null = null;
    for (
      const end = Date.now() + 30_000;
      match === null && Date.now() < end;
      await new Promise((r) => setTimeout(r, 5))
    )
      match = /aborted gone at (\d+): (.*)/.exec(fast.stderr());
    expect(Number(match?.[1]) - closedAt).toBeLessThan(100);
    // The fast path's cancel reason (the SDK's per-request path aborts with its own connection-closed error).
    expect(match?.[2]).toBe('The HTTP request was aborted');
    // The pinned server keeps serving.
    const after = await post(fast.url, modern('add'), call(2, 'add', { a: 2, b: 3 })).done;
    expect(JSON.parse(after.body).result.structuredContent).toEqual({ sum: 5 });
  }, 60_000);
});

describe('the HTTP fast path with bearer auth', () => {
  it('gives handlers the same principal, and leaves a missing scope to the SDK path', async () => {
    const guarded = buildGuarded('runtime-fast-path-guarded');
    const calls = path.join(repoRoot, '.test-out', 'runtime-fast-path-guarded', 'calls.log');
    const servers = await Promise.all([
      startHttpServer(guarded, guardedEnv(calls)),
      startHttpServer(guarded, { ...guardedEnv(calls), MCP_GEN_HTTP_FAST_PATH: 'off' }),
    ]);
    try {
      const cases: readonly (readonly [string, string | undefined, Record<string, unknown>])[] = [
        ['read_item', tokens.alice, call(1, 'read_item', { id: 'a1' })],
        ['read_item', tokens.bob, call('b', 'read_item', { id: 'b1' })],
        ['read_item', tokens.bob, call(2, 'read_item', { id: '' })],
        ['start_draft', tokens.bob, call(3, 'start_draft', { name: 'x' })],
        ['read_item', undefined, call(4, 'read_item', { id: 'a1' })],
      ];
      for (const [tool, token, body] of cases) {
        const headers = token === undefined ? modern(tool) : { ...modern(tool), authorization: `Bearer ${token}` };
        // The servers differ only in their ports, which a scope challenge names.
        const [a, b] = await Promise.all(
          servers.map(async (server) => {
            const raw = await post(server.url, headers, body).done;
            return JSON.stringify([raw.status, comparable(raw), raw.body]).replaceAll(`:${server.url.port}/`, ':PORT/');
          }),
        );
        expect([tool, a]).toEqual([tool, b]);
      }
      const bob = await post(
        servers[0].url,
        { ...modern('read_item'), authorization: `Bearer ${tokens.bob}` },
        call(5, 'read_item', { id: 'z' }),
      ).done;
      expect(JSON.parse(bob.body).result.content).toEqual([
        { type: 'text', text: 'item z read by bob with scopes items.read' },
      ]);
      // Which of them the fast path takes: a call with every scope of its tool, not one missing a scope.
      const generated = path.join(path.dirname(guarded), 'generated');
      const fastPath = await import(pathToFileURL(path.join(generated, 'runtime', 'http-fast.gen.js')).href);
      const { registry } = await import(pathToFileURL(path.join(generated, 'registry.gen.js')).href);
      const tools = fastPath.plainTools(registry);
      const auth = { token: 't', clientId: 'bob', scopes: ['items.read'] };
      const taken = (tool: string, body: unknown): boolean =>
        fastPath.plainCall(new Headers(modern(tool)), body, tools, auth) !== undefined;
      expect(taken('read_item', call(1, 'read_item', { id: 'a' }))).toBe(true);
      expect(taken('start_draft', call(1, 'start_draft', { name: 'x' }))).toBe(false);
      expect(taken('delete_item', call(1, 'delete_item', { id: 'a' }))).toBe(false);
      expect(taken('save_draft', call(1, 'save_draft', { draft: 'd' }))).toBe(false);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }, 240_000);
});
