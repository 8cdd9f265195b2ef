import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startRawStdio, type RawStdio } from '../../support/servers.js';
import { call, legacyInitialize, post, repoRoot, sharedBuild, startHttp, type HttpChild } from './support.js';

// Pages of every list (manifest `pagination`): a 1,000-tool server, with the default page size and
// with 7, lists every item exactly once, in registry order, over stdio and HTTP, on the modern path
// and through the legacy adapter; cursors it did not mint (edited, from another list, from another
// build) are -32602. And the legacy adapter declares and answers the same on both transports.

const out = path.join(repoRoot, '.test-out');
const pad = (i: number): string => String(i).padStart(4, '0');
const tools = Array.from({ length: 1000 }, (_, i) => `tool_${pad(i)}`);
const twelve = Array.from({ length: 12 }, (_, i) => pad(i));

/** A manifest of 1,000 tools and twelve prompts, resources and templates; `last` is tool_0999's description. */
function pagedManifest(file: string, pagination: string, last: string): string {
  const lines = [
    'mcpGen: 1',
    'server: { name: paged, version: 1.0.0 }',
    'protocol: { legacy: serve }',
    pagination,
    'transports: { stdio: {}, http: {} }',
    'lint: { maxTools: 1000 }',
    'tools:',
    ...tools.flatMap((name, i) => [
      `  ${name}:`,
      `    description: ${i === 999 ? last : `Returns item ${i}.`}`,
      '    annotations: { readOnlyHint: true, openWorldHint: false }',
      '    input: { type: object, additionalProperties: false }',
    ]),
    'prompts:',
    ...twelve.flatMap((n) => [`  prompt_${n}:`, `    messages: [{ role: user, text: Prompt ${n}. }]`]),
    'resources:',
    ...twelve.flatMap((n) => [`  note_${n}:`, `    uri: paged://notes/${n}`]),
    ...twelve.flatMap((n) => [`  item_${n}:`, `    uriTemplate: paged://items/${n}/{id}`]),
  ];
  return write(file, lines);
}

function write(file: string, lines: readonly string[]): string {
  mkdirSync(out, { recursive: true });
  const full = path.join(out, file);
  writeFileSync(full, `${lines.join('\n')}\n`);
  return full;
}

/** A legacy-serving server with one tool and no resources. */
const bareManifest = (): string =>
  write('pages-bare.yaml', [
    'mcpGen: 1',
    'server: { name: plain, version: 1.0.0 }',
    'protocol: { legacy: serve }',
    'transports: { stdio: {}, http: {} }',
    'tools:',
    '  ping: { description: Answers pong., input: { type: object, additionalProperties: false } }',
  ]);

type Answer = Record<string, any>;
type Ask = (method: string, params?: Record<string, unknown>) => Promise<Answer>;

/** The modern stdio requests of a server, numbered. */
function modernStdio(server: RawStdio): Ask {
  let id = 0;
  return (method, params = {}) =>
    server.request({ jsonrpc: '2.0', id: ++id, method, params: { _meta: metaOf(), ...params } });
}

/** A legacy stdio connection: `initialize` answered, then requests without `_meta`. */
async function legacyStdio(server: RawStdio): Promise<{ readonly initialized: Answer; readonly ask: Ask }> {
  const initialized = await server.request(legacyInitialize);
  server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  let id = 1;
  return { initialized, ask: (method, params = {}) => server.request({ jsonrpc: '2.0', id: ++id, method, params }) };
}

const legacyHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A legacy HTTP session: `initialize` opens it; every request carries its id. */
async function legacyHttp(url: URL): Promise<{ readonly initialized: Answer; readonly ask: Ask }> {
  const opened = await post(url, legacyInitialize, legacyHeaders);
  const session = {
    'mcp-session-id': opened.headers.get('mcp-session-id') ?? '',
    'mcp-protocol-version': '2025-11-25',
  };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...legacyHeaders, ...session });
  let id = 1;
  const ask: Ask = async (method, params = {}) =>
    (await post(url, { jsonrpc: '2.0', id: ++id, method, params }, { ...legacyHeaders, ...session })).body;
  return { initialized: opened.body, ask };
}

/** Every page of `method`, following nextCursor; the items' names (or URIs) and the raw pages. */
async function allPages(ask: Ask, method: string, key: string): Promise<{ names: string[]; pages: Answer[] }> {
  const names: string[] = [];
  const pages: Answer[] = [];
  let cursor: string | undefined;
  do {
    const answer = await ask(method, cursor === undefined ? {} : { cursor });
    expect(answer.error).toBeUndefined();
    pages.push(answer.result);
    names.push(...(answer.result[key] as { name: string }[]).map((item) => item.name));
    cursor = answer.result.nextCursor;
    expect(pages.length).toBeLessThanOrEqual(1000);
  } while (cursor !== undefined);
  return { names, pages };
}

/** The lists besides tools: method, result key, item name prefix. */
const otherLists = [
  ['prompts/list', 'prompts', 'prompt'],
  ['resources/list', 'resources', 'note'],
  ['resources/templates/list', 'resourceTemplates', 'item'],
] as const;

const invalidCursor = (id: number, method: string, cursor: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32602, message: `Invalid cursor for ${method}`, data: { cursor } },
});

let big: RawStdio;
let small: RawStdio;
let bigHttp: HttpChild;
let bare: RawStdio;
let bareHttp: HttpChild;
const entries: Record<'big' | 'bare', string> = { big: '', bare: '' };
/** Servers a test starts for a connection of its own, closed at the end. */
const extra: RawStdio[] = [];
const fresh = (entry: string): RawStdio => {
  const server = startRawStdio(entry);
  extra.push(server);
  return server;
};
const lists = new Map<string, Awaited<ReturnType<typeof allPages>>>();

beforeAll(async () => {
  const bigEntry = sharedBuild('pages', pagedManifest('pages.yaml', '', 'Returns item 999.'), {});
  const smallEntry = sharedBuild('pages-7', pagedManifest('pages-7.yaml', 'pagination: { pageSize: 7 }', 'Last.'), {});
  const bareEntry = sharedBuild('pages-bare', bareManifest(), {});
  Object.assign(entries, { big: bigEntry, bare: bareEntry });
  [big, small, bare] = [startRawStdio(bigEntry), startRawStdio(smallEntry), startRawStdio(bareEntry)];
  [bigHttp, bareHttp] = await Promise.all([startHttp(bigEntry, {}), startHttp(bareEntry, {})]);
}, 600_000);

afterAll(async () => {
  const stdio = [big, small, bare, ...extra].map((server) => server?.close());
  await Promise.all([...stdio, bigHttp?.stop(), bareHttp?.stop()]);
});

describe('pages of 100 (the default)', () => {
  it('lists each of 1,000 tools exactly once, in registry order, in 10 pages', async () => {
    const tools100 = await allPages(modernStdio(big), 'tools/list', 'tools');
    lists.set('tools', tools100);
    expect(tools100.names).toEqual(tools);
    expect(tools100.pages.map((page) => page.tools.length)).toEqual(Array(10).fill(100));
    // Each page is a complete, cacheable result of its own, with the list's freshness.
    for (const page of tools100.pages)
      expect([page.resultType, page.ttlMs, page.cacheScope]).toEqual(['complete', 300000, 'public']);
    expect(tools100.pages.at(-1)?.nextCursor).toBeUndefined();
  });

  it('sends prompts, resources and templates of 12 in one page without nextCursor', async () => {
    const ask = modernStdio(big);
    for (const [method, key, prefix] of otherLists) {
      const { names, pages } = await allPages(ask, method, key);
      expect(names).toEqual(twelve.map((n) => `${prefix}_${n}`));
      expect(pages).toHaveLength(1);
    }
  });

  it('serves the same pages over HTTP, each with its cache hints', async () => {
    const ask: Ask = async (method, params = {}) => {
      const reply = await call(bigHttp.url, method, { _meta: metaOf(), ...params });
      expect(reply.status).toBe(200);
      return reply.body;
    };
    const overHttp = await allPages(ask, 'tools/list', 'tools');
    expect(overHttp.names).toEqual(tools);
    expect(overHttp.pages.map((page) => page.nextCursor)).toEqual(lists.get('tools')?.pages.map((p) => p.nextCursor));
    const bad = await call(bigHttp.url, 'tools/list', { _meta: metaOf(), cursor: 'not-a-cursor' }, 7);
    expect([bad.status, bad.body]).toEqual([200, invalidCursor(7, 'tools/list', 'not-a-cursor')]);
  });

  it('answers an edited cursor, a cursor of another list and a made-up one with -32602', async () => {
    const ask = modernStdio(big);
    const cursor = String(lists.get('tools')?.pages[3]?.nextCursor);
    const edited = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    for (const [method, bad] of [
      ['tools/list', edited],
      ['tools/list', ''],
      ['tools/list', 'not-a-cursor'],
      ['prompts/list', cursor],
      ['resources/list', cursor],
      ['resources/templates/list', cursor],
    ] as const) {
      const answer = await ask(method, { cursor: bad });
      expect(answer).toEqual(invalidCursor(answer.id, method, bad));
    }
  });
});

describe('pages of 7 (pagination.pageSize)', () => {
  it('lists each of 1,000 tools exactly once in 143 pages, and 12 prompts, resources and templates in 2', async () => {
    const ask = modernStdio(small);
    const paged = await allPages(ask, 'tools/list', 'tools');
    expect(paged.names).toEqual(tools);
    expect(paged.pages.map((page) => page.tools.length)).toEqual([...Array(142).fill(7), 6]);
    for (const [method, key, prefix] of otherLists) {
      const { names, pages } = await allPages(ask, method, key);
      expect(names).toEqual(twelve.map((n) => `${prefix}_${n}`));
      expect(pages.map((page) => page[key].length)).toEqual([7, 5]);
    }
  });

  it('refuses a cursor of a build with another tool list, though it names an offset this build has', async () => {
    // Offset 700 is a page of both builds; only the digest of the list (tool_0999's description) differs.
    const foreign = lists.get('tools')?.pages[6]?.nextCursor;
    const answer = await modernStdio(small)('tools/list', { cursor: foreign });
    expect(answer).toEqual(invalidCursor(answer.id, 'tools/list', foreign));
  });
});

describe('the legacy adapter', () => {
  // No `notifications` in the manifest: no list announces changes and no resource subscription is offered.
  const declared = {
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
    logging: {},
  };

  it('declares the same capabilities and answers the same on stdio and HTTP', async () => {
    const stdio = await legacyStdio(fresh(entries.big));
    const http = await legacyHttp(bigHttp.url);
    for (const { initialized, ask } of [stdio, http]) {
      expect(initialized.result.capabilities).toEqual(declared);
      expect((await ask('logging/setLevel', { level: 'warning' })).result).toEqual({});
      for (const method of ['resources/subscribe', 'resources/unsubscribe'])
        expect((await ask(method, { uri: 'paged://notes/0001' })).error).toEqual({
          code: -32601,
          message: 'Method not found',
        });
      const paged = await allPages(ask, 'tools/list', 'tools');
      expect(paged.names).toEqual(tools);
      expect(paged.pages.map((page) => page.nextCursor)).toEqual(lists.get('tools')?.pages.map((p) => p.nextCursor));
      const bad = await ask('tools/list', { cursor: 'not-a-cursor' });
      expect(bad).toEqual(invalidCursor(bad.id, 'tools/list', 'not-a-cursor'));
    }
  });

  it('on a server without resources declares logging only, and answers resources/* -32601 in both eras', async () => {
    const stdio = await legacyStdio(fresh(entries.bare));
    const http = await legacyHttp(bareHttp.url);
    const notFound = { code: -32601, message: 'Method not found' };
    for (const { initialized, ask } of [stdio, http]) {
      expect(initialized.result.capabilities).toEqual({ tools: { listChanged: false }, logging: {} });
      expect((await ask('logging/setLevel', { level: 'info' })).result).toEqual({});
      for (const method of ['resources/read', 'resources/subscribe', 'resources/list'])
        expect((await ask(method, { uri: 'paged://nothing' })).error).toEqual(notFound);
    }
    // The 2026-07-28 path: the spec's -32601 for a method whose capability is not advertised (404 over HTTP).
    expect((await modernStdio(bare)('resources/read', { uri: 'paged://nothing' })).error).toEqual(notFound);
    const modern = await call(bareHttp.url, 'resources/read', { _meta: metaOf(), uri: 'paged://nothing' });
    expect([modern.status, modern.body.error]).toEqual([404, notFound]);
  });
});
