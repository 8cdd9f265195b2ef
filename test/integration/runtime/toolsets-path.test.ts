import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from '../protocol/support.js';
import { envelope, generateAndCompile, limits, repoRoot, startHttpServer, type RunningServer } from './harness.js';

// Toolsets narrowed by URL path, for hosts that let a user set only a URL: `/mcp/x/<toolsets>` means what the
// Mcp-Toolsets header means, on node:http and on the fetch handler, and a 2025-11-25 session opened there keeps it.
// The fixture (toolsets.yaml, with legacy: serve): issues (list_issues, create_issue), repos (list_repos), writes
// (create_issue); whoami is in no toolset and always listed.

let entry = '';
const legacyVersion = '2025-11-25';

beforeAll(() => {
  const fixture = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'runtime', 'toolsets.yaml'), 'utf8');
  const manifest = fixture.replace('protocol: { legacy: reject }', 'protocol: { legacy: serve }');
  expect(manifest).toContain('legacy: serve');
  const file = path.join(repoRoot, '.test-out', 'runtime-toolsets-path.yaml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, manifest);
  entry = generateAndCompile(file, 'runtime-toolsets-path', {});
}, 240_000);

/** A modern request to `url` (with `headers` added): status and JSON-RPC answer, `name` taken out of it. */
async function modern(url: URL, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(method, params), ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method, params: { ...params, _meta: envelope() } }),
    signal: AbortSignal.timeout(limits.requestMs),
  });
  const text = await response.text();
  const name = typeof params.name === 'string' ? params.name : '\0';
  return { status: response.status, body: JSON.parse(text.replaceAll(name, '<tool>')) as Record<string, any> };
}

/** The tool names tools/list answers at `url`, page by page (two tools a page). */
async function listed(url: URL, headers: Record<string, string> = {}): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 3; page += 1) {
    const answer = await modern(url, 'tools/list', cursor === undefined ? {} : { cursor }, headers);
    names.push(...answer.body.result.tools.map((t: { name: string }) => t.name));
    cursor = answer.body.result.nextCursor;
    if (cursor === undefined) return names;
  }
  throw new Error(`more pages than tools: ${names.join(', ')}`);
}

const unknownTool = {
  status: 200,
  body: { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Tool <tool> not found' } },
};
const notFound = { status: 404, body: { jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Not found' } } };
const every = ['create_issue', 'list_issues', 'list_repos', 'whoami'];

describe('toolsets by URL path over HTTP', () => {
  const servers: RunningServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startHttpServer(entry, env);
    servers.push(server);
    return (p: string) => new URL(p, server.url);
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('lists and calls only the toolsets the path names, percent-decoded, all as the header allows', async () => {
    const at = await start({ ISSUE_DESK_TOOLSETS: 'all' });
    expect(await listed(at('/mcp/x/repos'))).toEqual(['list_repos', 'whoami']);
    expect(await listed(at('/mcp/x/issues,repos'))).toEqual(every);
    expect(await listed(at('/mcp/x/issues%2C%20repos'))).toEqual(every);
    expect(await listed(at('/mcp/x/all'))).toEqual(every);
    // Stateless: the endpoint itself still serves the whole deployment.
    expect(await listed(at('/mcp'))).toEqual(every);
    // Outside the path's toolsets a tool is unknown, on the fast path's requests too; inside, it runs (the stub).
    expect(await modern(at('/mcp/x/repos'), 'tools/call', { name: 'create_issue', arguments: {} })).toEqual(
      unknownTool,
    );
    const served = await modern(at('/mcp/x/repos'), 'tools/call', { name: 'list_repos', arguments: {} });
    expect([served.status, served.body.result.isError]).toEqual([200, true]);
  }, 120_000);

  it('takes the intersection of the path and the header: neither widens the other', async () => {
    const at = await start({ ISSUE_DESK_TOOLSETS: 'all' });
    // create_issue is in issues and in writes: both admit it.
    expect(await listed(at('/mcp/x/issues'), { 'mcp-toolsets': 'writes' })).toEqual(['create_issue', 'whoami']);
    expect(await listed(at('/mcp/x/repos'), { 'mcp-toolsets': 'issues' })).toEqual(['whoami']);
    expect(await listed(at('/mcp/x/repos'), { 'mcp-toolsets': 'all' })).toEqual(['list_repos', 'whoami']);
    expect(await listed(at('/mcp/x/all'), { 'mcp-toolsets': 'repos' })).toEqual(['list_repos', 'whoami']);
    const call = { name: 'list_issues', arguments: {} };
    expect(await modern(at('/mcp/x/issues'), 'tools/call', call, { 'mcp-toolsets': 'repos' })).toEqual(unknownTool);
    // Never past the deployment's own selection.
    const narrow = await start({ ISSUE_DESK_TOOLSETS: 'issues' });
    expect(await listed(narrow('/mcp/x/repos'))).toEqual(['whoami']);
    expect(await listed(narrow('/mcp/x/all'))).toEqual(['create_issue', 'list_issues', 'whoami']);
  }, 120_000);

  it('answers an unknown toolset 400, and an empty list or more segments 404', async () => {
    const at = await start({ ISSUE_DESK_TOOLSETS: 'all' });
    const unknown = (message: string) => ({
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: -32602, message } },
    });
    expect(await modern(at('/mcp/x/repos,nope'), 'tools/list', {})).toEqual(
      unknown('Unknown toolset in the URL path: nope'),
    );
    expect(await modern(at('/mcp/x/repos'), 'tools/list', {}, { 'mcp-toolsets': 'nope' })).toEqual(
      unknown('Unknown toolset in Mcp-Toolsets: nope'),
    );
    // A `;` is no part of any toolset name, in the header as in the path.
    expect(await modern(at('/mcp/x/repos'), 'tools/list', {}, { 'mcp-toolsets': 'issues;repos' })).toEqual(
      unknown('Unknown toolset in Mcp-Toolsets: issues;repos'),
    );
    for (const p of [
      '/mcp/x/',
      '/mcp/x/%2C',
      '/mcp/x/repos/',
      '/mcp/x/repos/more',
      '/mcp/x',
      '/mcpx/repos',
      '/mcp/x/%E0',
    ])
      expect([p, await modern(at(p), 'tools/list', {})]).toEqual([p, notFound]);
  }, 120_000);

  describe('a 2025-11-25 session', () => {
    /** POSTs a legacy message to `url` (in `session` when given): status and the JSON-RPC answer, JSON or SSE. */
    const legacy = async (url: URL, body: Record<string, unknown>, session?: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': legacyVersion }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
        signal: AbortSignal.timeout(limits.requestMs),
      });
      const text = await response.text();
      const json = text === '' ? null : JSON.parse(text.startsWith('{') ? text : (/data: (.*)/.exec(text)?.[1] ?? ''));
      return { status: response.status, session: response.headers.get('mcp-session-id'), body: json };
    };
    const open = async (url: URL) => {
      const init = await legacy(url, {
        id: 1,
        method: 'initialize',
        params: { protocolVersion: legacyVersion, capabilities: {}, clientInfo: { name: 'path-test', version: '1' } },
      });
      expect(init.status).toBe(200);
      await legacy(url, { method: 'notifications/initialized' }, init.session ?? '');
      return init.session ?? '';
    };
    const names = (answer: { body: any }) => answer.body.result.tools.map((t: { name: string }) => t.name);

    it('keeps the toolsets of the path it was opened on, and exists only on that path', async () => {
      const at = await start({ ISSUE_DESK_TOOLSETS: 'all' });
      const session = await open(at('/mcp/x/repos'));
      const list = { id: 2, method: 'tools/list', params: {} };
      expect(names(await legacy(at('/mcp/x/repos'), list, session))).toEqual(['list_repos', 'whoami']);
      const call = await legacy(
        at('/mcp/x/repos'),
        { id: 3, method: 'tools/call', params: { name: 'list_issues' } },
        session,
      );
      expect(call.body).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32602, message: 'Tool list_issues not found' },
      });
      const gone = {
        status: 404,
        session: null,
        body: { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } },
      };
      expect(await legacy(at('/mcp'), list, session)).toEqual(gone);
      expect(await legacy(at('/mcp/x/issues,repos'), list, session)).toEqual(gone);
      // The same list written otherwise is the same path.
      expect(names(await legacy(at('/mcp/x/%20repos'), list, session))).toEqual(['list_repos', 'whoami']);
      expect(names(await legacy(at('/mcp/x/repos,repos'), list, session))).toEqual(['list_repos', 'whoami']);
      const both = await open(at('/mcp/x/repos,issues'));
      expect(names(await legacy(at('/mcp/x/issues,repos'), list, both))).toEqual(['create_issue', 'list_issues']);
      // A session of the endpoint itself serves the deployment, and ignores the header as it always did.
      const whole = await open(at('/mcp'));
      expect(names(await legacy(at('/mcp'), { ...list, params: {} }, whole))).toEqual(['create_issue', 'list_issues']);
      expect(await legacy(at('/mcp/x/repos'), list, whole)).toEqual(gone);
      // Without a session, a legacy request is answered statelessly, narrowed too.
      const stateless = await legacy(at('/mcp/x/repos'), list);
      expect(names(stateless)).toEqual(['list_repos', 'whoami']);
    }, 120_000);
  });
});

describe('toolsets by URL path on the fetch runtime', () => {
  it('routes /mcp/x/<toolsets> as node:http does', async () => {
    const generated = path.join(path.dirname(entry), 'generated');
    const runtime = pathToFileURL(path.join(generated, 'runtime', 'http-fetch.gen.js')).href;
    type Handler = (request: Request, env?: Readonly<Record<string, unknown>>) => Promise<Response>;
    const { serveFetch } = (await import(runtime)) as { serveFetch: (definition: unknown) => Handler };
    const server = pathToFileURL(path.join(generated, 'server.gen.js')).href;
    const handler = serveFetch(((await import(server)) as { definition: unknown }).definition);
    const env = { ISSUE_DESK_TOOLSETS: 'all' };
    const list = async (p: string, headers: Record<string, string> = {}) => {
      const answer = await handler(
        new Request(`http://127.0.0.1:8787${p}`, {
          method: 'POST',
          headers: { ...modernHeaders('tools/list'), ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }),
        }),
        env,
      );
      const body = (await answer.json()) as Record<string, any>;
      return { status: answer.status, names: body.result?.tools.map((t: { name: string }) => t.name) ?? body.error };
    };
    expect(await list('/mcp/x/repos')).toEqual({ status: 200, names: ['list_repos', 'whoami'] });
    expect(await list('/mcp/x/issues', { 'mcp-toolsets': 'writes' })).toEqual({
      status: 200,
      names: ['create_issue', 'whoami'],
    });
    expect(await list('/mcp/x/nope')).toEqual({
      status: 400,
      names: { code: -32602, message: 'Unknown toolset in the URL path: nope' },
    });
    expect(await list('/mcp/x/')).toEqual({ status: 404, names: { code: -32601, message: 'Not found' } });
  }, 60_000);
});
