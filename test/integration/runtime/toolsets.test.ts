import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startRawStdio } from '../../support/servers.js';
import { modernHeaders } from '../protocol/support.js';
import { envelope, generateAndCompile, repoRoot, runToExit, startHttpServer, type RunningServer } from './harness.js';
import { called, listed, post, type ListResult } from './toolsets-support.js';

// Toolsets over real stdio and HTTP: a deployment chooses toolsets with ISSUE_DESK_TOOLSETS, mounts read-only with
// ISSUE_DESK_READ_ONLY=1, and an HTTP request narrows with Mcp-Toolsets; a tool outside the selection gets exactly
// the answer of a tool that does not exist. The fixture: issues (default: list_issues, create_issue), repos
// (list_repos), writes (create_issue); whoami is in no toolset and always listed.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'toolsets.yaml');
let entry = '';

beforeAll(() => {
  entry = generateAndCompile(manifest, 'runtime-toolsets', {});
}, 240_000);

describe('toolsets over HTTP', () => {
  const servers: RunningServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startHttpServer(entry, env);
    servers.push(server);
    return server.url;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('lists the default toolsets and the tools in none; every toolset with all; a chosen one', async () => {
    expect(await listed(await start({}))).toEqual(['create_issue', 'list_issues', 'whoami']);
    expect(await listed(await start({ ISSUE_DESK_TOOLSETS: 'all' }))).toEqual([
      'create_issue',
      'list_issues',
      'list_repos',
      'whoami',
    ]);
    expect(await listed(await start({ ISSUE_DESK_TOOLSETS: ' repos, writes ' }))).toEqual([
      'create_issue',
      'list_repos',
      'whoami',
    ]);
  }, 120_000);

  it('mounts read-only: only readOnlyHint tools are listed and callable', async () => {
    const url = await start({ ISSUE_DESK_TOOLSETS: 'all', ISSUE_DESK_READ_ONLY: '1' });
    expect(await listed(url)).toEqual(['list_issues', 'list_repos', 'whoami']);
    expect(await called(url, 'create_issue')).toEqual(await called(url, 'no_such_tool'));
    const served = (await called(url, 'list_issues')) as { status: number; body: { result: { isError: boolean } } };
    expect(served.status).toBe(200);
    expect(served.body.result.isError).toBe(true); // the stub: not implemented, but it ran
  }, 120_000);

  it('answers a tool outside the selection exactly as an unknown tool, on the fast path and off it', async () => {
    const unknown = {
      status: 200,
      body: { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Tool <tool> not found' } },
    };
    for (const env of [{}, { MCP_GEN_HTTP_FAST_PATH: 'off' }]) {
      const url = await start(env);
      expect(await called(url, 'no_such_tool')).toEqual(unknown);
      expect(await called(url, 'list_repos')).toEqual(unknown);
    }
  }, 120_000);

  it('narrows one request with Mcp-Toolsets, never past the deployment, and refuses an unknown toolset', async () => {
    const all = await start({ ISSUE_DESK_TOOLSETS: 'all' });
    expect(await listed(all, { 'mcp-toolsets': 'repos' })).toEqual(['list_repos', 'whoami']);
    expect(await listed(all, { 'mcp-toolsets': 'issues,repos' })).toEqual([
      'create_issue',
      'list_issues',
      'list_repos',
      'whoami',
    ]);
    expect(await called(all, 'create_issue', { 'mcp-toolsets': 'repos' })).toEqual(
      await called(all, 'no_such_tool', { 'mcp-toolsets': 'repos' }),
    );
    // Stateless: the next request without the header sees the whole deployment again.
    expect(await listed(all)).toHaveLength(4);
    const narrow = await start({ ISSUE_DESK_TOOLSETS: 'issues' });
    expect(await listed(narrow, { 'mcp-toolsets': 'repos' })).toEqual(['whoami']);
    expect(await listed(narrow, { 'mcp-toolsets': 'all' })).toEqual(['create_issue', 'list_issues', 'whoami']);
    const bad = await post(all, 'tools/list', {}, { 'mcp-toolsets': 'repos,nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32602, message: 'Unknown toolset in Mcp-Toolsets: nope' },
    });
  }, 120_000);

  // A subscriptions/listen request was answered before the header was read, so an unknown toolset in it opened a
  // stream where every other request is refused.
  it('refuses an unknown toolset in Mcp-Toolsets on a subscriptions/listen request too, before a stream', async () => {
    const url = await start({ ISSUE_DESK_TOOLSETS: 'all' });
    const listen = await post(url, 'subscriptions/listen', { notifications: {} }, { 'mcp-toolsets': 'repos,nope' });
    const type = listen.headers.get('content-type');
    // A stream opened instead is left, not read to its end.
    const body = type === 'application/json' ? await listen.json() : await listen.body?.cancel();
    expect([listen.status, type, body]).toEqual([
      400,
      'application/json',
      { jsonrpc: '2.0', id: null, error: { code: -32602, message: 'Unknown toolset in Mcp-Toolsets: nope' } },
    ]);
  }, 120_000);
});

describe('toolsets over stdio', () => {
  it('selects with the environment, and refuses to start on a toolset the server does not have', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: metaOf() } };
    const call = (id: number, name: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: metaOf() },
    });
    const server = startRawStdio(entry, { ISSUE_DESK_TOOLSETS: 'repos', ISSUE_DESK_READ_ONLY: '1' });
    try {
      const answer = (await server.request(list)) as ListResult;
      expect(answer.result.tools.map((t) => t.name)).toEqual(['list_repos', 'whoami']);
      expect(answer.result.nextCursor).toBeUndefined();
      const outside = await server.request(call(2, 'list_issues'));
      const unknown = await server.request(call(3, 'no_such_tool'));
      expect(JSON.stringify(outside).replace('list_issues', '<tool>').replace('"id":2', '"id":3')).toBe(
        JSON.stringify(unknown).replace('no_such_tool', '<tool>'),
      );
    } finally {
      await server.close();
    }
    const refused = runToExit(entry, [], { ISSUE_DESK_TOOLSETS: 'repos,nope' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      'ISSUE_DESK_TOOLSETS names no toolset of this server: nope (all, issues, repos, writes)',
    );
    const badMount = runToExit(entry, [], { ISSUE_DESK_READ_ONLY: 'yes' });
    expect(badMount.stderr).toContain('ISSUE_DESK_READ_ONLY must be 1 or 0, got "yes"');
  }, 120_000);
});

describe('toolsets on the fetch runtime', () => {
  type FetchHandler = (request: Request, env?: Readonly<Record<string, unknown>>) => Promise<Response>;
  /** A fetch handler of its own (serveFetch), whose environment is the Worker env of its first request. */
  const fetchOf = async (): Promise<FetchHandler> => {
    const generated = path.join(path.dirname(entry), 'generated');
    const runtime = pathToFileURL(path.join(generated, 'runtime', 'http-fetch.gen.js')).href;
    const { serveFetch } = (await import(runtime)) as { serveFetch: (definition: unknown) => FetchHandler };
    const server = pathToFileURL(path.join(generated, 'server.gen.js')).href;
    return serveFetch(((await import(server)) as { definition: unknown }).definition);
  };
  /** tools/list page by page (two tools a page), as a Worker with `env` answers it: the status and the names. */
  const list = async (env: Readonly<Record<string, unknown>>) => {
    const handler = await fetchOf();
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page += 1) {
      const params = { ...(cursor === undefined ? {} : { cursor }), _meta: envelope() };
      const answer = await handler(
        new Request('http://127.0.0.1:8787/mcp', {
          method: 'POST',
          headers: modernHeaders('tools/list'),
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params }),
        }),
        env,
      );
      if (answer.status !== 200) return { status: answer.status, names };
      const body = (await answer.json()) as ListResult;
      names.push(...body.result.tools.map((t) => t.name));
      cursor = body.result.nextCursor;
      if (cursor === undefined) return { status: answer.status, names };
    }
    throw new Error(`more pages than tools: ${names.join(', ')}`);
  };

  it('reads a Worker var that is a JSON number or boolean as its text, and refuses a JSON list or object', async () => {
    const writes = ['create_issue', 'list_issues', 'list_repos', 'whoami'];
    const mounted = { status: 200, names: ['list_issues', 'list_repos', 'whoami'] };
    expect(await list({ ISSUE_DESK_TOOLSETS: 'all' })).toEqual({ status: 200, names: writes });
    expect(await list({ ISSUE_DESK_TOOLSETS: 'all', ISSUE_DESK_READ_ONLY: '1' })).toEqual(mounted);
    // wrangler.jsonc "vars": { "ISSUE_DESK_READ_ONLY": 1 } is a JSON binding: the number 1.
    expect(await list({ ISSUE_DESK_TOOLSETS: 'all', ISSUE_DESK_READ_ONLY: 1 })).toEqual(mounted);
    // true is no value the mount takes ("1" or "0"): the Worker does not start, as a Node server would not.
    expect(await list({ ISSUE_DESK_TOOLSETS: 'all', ISSUE_DESK_READ_ONLY: true })).toEqual({
      status: 503,
      names: [],
    });
    // A JSON list or object is no value either: refused, not read as unset (the default toolsets, writes included).
    expect(await list({ ISSUE_DESK_TOOLSETS: ['repos'] })).toEqual({ status: 503, names: [] });
    expect(await list({ ISSUE_DESK_TOOLSETS: 'all', ISSUE_DESK_READ_ONLY: { on: 1 } })).toEqual({
      status: 503,
      names: [],
    });
  }, 60_000);
});
