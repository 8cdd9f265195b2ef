import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startRawStdio } from '../../support/servers.js';
import {
  envelope,
  generateAndCompile,
  repoRoot,
  rpc,
  startHttpServer,
  type RunningServer,
  version,
} from './harness.js';

// discovery: search over real HTTP and stdio. The fixture (issue-finder): toolset issues (default: list_issues,
// create_issue, delete_issue with approval: confirm), toolset repos (list_repos). tools/list lists search_tools and
// call_tool; call_tool runs the named tool through the same SDK handler as a direct tools/call.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'search.yaml');
const handlers = {
  'src/handlers/tools/delete_issue.ts':
    "import type { ToolHandler } from '../../generated/index.gen.js';\n" +
    "export const deleteIssueHandler: ToolHandler<'delete_issue'> = async (input) => 'deleted ' + input.number;\n",
  'src/handlers/tools/list_issues.ts':
    "import type { ToolHandler } from '../../generated/index.gen.js';\n" +
    "export const listIssuesHandler: ToolHandler<'list_issues'> = async (input) => 'issues of ' + input.repo;\n",
};
const keys = { ISSUE_FINDER_STATE_KEY: 'k'.repeat(40) };
let entry = '';

beforeAll(() => {
  entry = generateAndCompile(manifest, 'runtime-search', handlers);
}, 240_000);

type Result = { resultType?: string; isError?: boolean; content?: { text: string }[]; structuredContent?: unknown };

/** The answer's result with its sealed requestState replaced (it differs on every call). */
const unsealed = (result: Record<string, unknown>) =>
  'requestState' in result ? { ...result, requestState: '<sealed>' } : result;

/** The text of a tool result, the named tool's name replaced. */
const textOf = (result: Result, name: string) => (result.content ?? []).map((c) => c.text.replaceAll(name, '<tool>'));

describe('discovery: search over HTTP', () => {
  const servers: RunningServer[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const server = await startHttpServer(entry, { ...keys, ...env });
    servers.push(server);
    return server.url;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });
  const call = async (url: URL, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await rpc(url, 'tools/call', { name, arguments: args, _meta: envelope(), ...extra })).body.result as Result;
  const search = async (url: URL, query: string, limit?: number) =>
    (await call(url, 'search_tools', { query, ...(limit === undefined ? {} : { limit }) })).structuredContent as {
      tools: { name: string }[];
    };

  it('lists search_tools and call_tool only, and ranks the selected tools with their descriptors', async () => {
    const url = await start();
    const listed = (await rpc(url, 'tools/list', { _meta: envelope() })).body.result.tools as { name: string }[];
    expect(listed.map((t) => t.name)).toEqual(['call_tool', 'search_tools']);
    const found = await search(url, 'file a new issue');
    expect(found.tools[0]).toEqual({
      name: 'create_issue',
      title: 'Create an issue',
      description: 'File a new issue in a repository and return its number.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['repo', 'title'],
        properties: { repo: { type: 'string', maxLength: 100 }, title: { type: 'string', maxLength: 200 } },
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    });
    expect((await search(url, 'remove an issue')).tools.map((t) => t.name)).toEqual([
      'delete_issue',
      'create_issue',
      'list_issues',
    ]);
    expect((await search(url, 'list the issues of a repository', 1)).tools.map((t) => t.name)).toEqual(['list_issues']);
    // list_repos is in no default toolset: not searchable.
    expect((await search(url, 'list repositories')).tools.map((t) => t.name)).not.toContain('list_repos');
  }, 120_000);

  it('asks to approve a destructive tool through call_tool as a direct call does, and runs it on accept', async () => {
    const url = await start();
    const direct = await rpc(url, 'tools/call', { name: 'delete_issue', arguments: { number: 7 }, _meta: envelope() });
    const proxied = await rpc(url, 'tools/call', {
      name: 'call_tool',
      arguments: { name: 'delete_issue', arguments: { number: 7 } },
      _meta: envelope(),
    });
    expect(direct.body.result.resultType).toBe('input_required');
    expect({ status: proxied.status, result: unsealed(proxied.body.result) }).toEqual({
      status: direct.status,
      result: unsealed(direct.body.result),
    });
    const accepted = await call(
      url,
      'call_tool',
      { name: 'delete_issue', arguments: { number: 7 } },
      {
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: proxied.body.result.requestState,
      },
    );
    expect(accepted.content).toEqual([{ type: 'text', text: 'deleted 7' }]);
    // The approval is bound to the tool and its arguments: other arguments through call_tool run nothing.
    const other = await call(
      url,
      'call_tool',
      { name: 'delete_issue', arguments: { number: 8 } },
      {
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: proxied.body.result.requestState,
      },
    );
    expect(other.isError).toBe(true);
  }, 120_000);

  it('names the real tool in a validation error; a tool outside the selection is an unknown one', async () => {
    const url = await start();
    const invalid = await call(url, 'call_tool', { name: 'create_issue', arguments: { repo: 1 } });
    expect(invalid.isError).toBe(true);
    expect(invalid.content?.[0]?.text).toContain('Invalid arguments for tool create_issue');
    const outside = await call(url, 'call_tool', { name: 'list_repos', arguments: {} });
    const unknown = await call(url, 'call_tool', { name: 'no_such_tool', arguments: {} });
    expect(textOf(outside, 'list_repos')).toEqual(textOf(unknown, 'no_such_tool'));
    expect(textOf(unknown, 'no_such_tool')).toEqual(['Tool <tool> not found']);
    const ran = await call(url, 'call_tool', { name: 'list_issues', arguments: { repo: 'a/b' } });
    expect(ran.content).toEqual([{ type: 'text', text: 'issues of a/b' }]);
  }, 120_000);

  it('with ISSUE_FINDER_READ_ONLY=1 a write tool is neither found nor callable', async () => {
    const url = await start({ ISSUE_FINDER_READ_ONLY: '1', ISSUE_FINDER_TOOLSETS: 'all' });
    expect((await search(url, 'create delete list issue repositories')).tools.map((t) => t.name)).toEqual([
      'list_issues',
      'list_repos',
    ]);
    const write = await call(url, 'call_tool', { name: 'create_issue', arguments: { repo: 'a/b', title: 'x' } });
    const unknown = await call(url, 'call_tool', { name: 'no_such_tool', arguments: {} });
    expect(textOf(write, 'create_issue')).toEqual(textOf(unknown, 'no_such_tool'));
  }, 120_000);

  it('lists call_tool with the hints of the tools it reaches: read-only under a read-only selection', async () => {
    // Each request lists the tools an Mcp-Toolsets header narrows it to.
    const hintsOf = async (url: URL, headers: Record<string, string> = {}) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
          'mcp-method': 'tools/list',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }),
      });
      const tools = ((await response.json()) as { result: { tools: { name: string; annotations: unknown }[] } }).result
        .tools;
      return Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    };
    const searching = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
    // delete_issue may destroy, create_issue is not idempotent: what the registry lists for every tool.
    const writing = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    const reading = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
    const all = await start({ ISSUE_FINDER_TOOLSETS: 'all' });
    expect(await hintsOf(all)).toEqual({ call_tool: writing, search_tools: searching });
    expect(await hintsOf(all, { 'mcp-toolsets': 'repos' })).toEqual({ call_tool: reading, search_tools: searching });
    expect(await hintsOf(await start())).toEqual({ call_tool: writing, search_tools: searching });
    const mounted = await start({ ISSUE_FINDER_READ_ONLY: '1', ISSUE_FINDER_TOOLSETS: 'all' });
    expect(await hintsOf(mounted)).toEqual({ call_tool: reading, search_tools: searching });
    expect(await hintsOf(await start({ ISSUE_FINDER_TOOLSETS: 'repos' }))).toEqual({
      call_tool: reading,
      search_tools: searching,
    });
  }, 120_000);
});

describe('discovery: search over stdio', () => {
  it('lists the surface, searches, and asks approval through call_tool as a direct call does', async () => {
    const server = startRawStdio(entry, keys);
    const request = (id: number, method: string, params: Record<string, unknown>) =>
      server.request({ jsonrpc: '2.0', id, method, params: { ...params, _meta: metaOf(undefined, elicit) } });
    const elicit = { elicitation: { form: {} } };
    try {
      const list = (await request(1, 'tools/list', {})) as { result: { tools: { name: string }[] } };
      expect(list.result.tools.map((t) => t.name)).toEqual(['call_tool', 'search_tools']);
      const found = (await request(2, 'tools/call', {
        name: 'search_tools',
        arguments: { query: 'delete an issue', limit: 1 },
      })) as { result: { structuredContent: { tools: { name: string }[] } } };
      expect(found.result.structuredContent.tools.map((t) => t.name)).toEqual(['delete_issue']);
      const direct = (await request(3, 'tools/call', { name: 'delete_issue', arguments: { number: 3 } })) as {
        result: Record<string, unknown>;
      };
      const proxied = (await request(4, 'tools/call', {
        name: 'call_tool',
        arguments: { name: 'delete_issue', arguments: { number: 3 } },
      })) as { result: Record<string, unknown> };
      expect(direct.result.resultType).toBe('input_required');
      expect(unsealed(proxied.result)).toEqual(unsealed(direct.result));
      const invalid = (await request(5, 'tools/call', {
        name: 'call_tool',
        arguments: { name: 'delete_issue', arguments: { number: 'x' } },
      })) as { result: Result };
      expect(invalid.result.content?.[0]?.text).toContain('Invalid arguments for tool delete_issue');
    } finally {
      await server.close();
    }
    const mounted = startRawStdio(entry, { ...keys, ISSUE_FINDER_READ_ONLY: '1' });
    try {
      const found = (await mounted.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_tools', arguments: { query: 'delete an issue' }, _meta: metaOf() },
      })) as { result: { structuredContent: { tools: { name: string }[] } } };
      expect(found.result.structuredContent.tools.map((t) => t.name)).toEqual(['list_issues']);
    } finally {
      await mounted.close();
    }
  }, 120_000);
});

describe('discovery: search and scopes', () => {
  const scoped = `mcpGen: 1
server: { name: scoped-finder, version: 1.0.0 }
protocol: { legacy: reject }
discovery: search
transports:
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
auth:
  type: bearer
  tokensEnv: SCOPED_TOKENS
  scopes: { issues.read: Read issues., issues.write: File issues. }
tools:
  list_issues:
    description: List the open issues of a repository, newest first.
    scopes: [issues.read]
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
  create_issue:
    description: File a new issue in a repository and return its number.
    scopes: [issues.write]
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
`;
  const token = 'reader-token-0123456789';
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('asks call_tool for the named tool scopes, with the answer of a direct call', async () => {
    const file = path.join(repoRoot, '.test-out', 'runtime-search-scoped.yaml');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, scoped);
    const scopedEntry = generateAndCompile(file, 'runtime-search-scoped', {});
    server = await startHttpServer(scopedEntry, { SCOPED_TOKENS: `${token}=reader:issues.read` });
    const exchange = async (name: string, args: Record<string, unknown>) => {
      const answer = await rpc(server?.url as URL, 'tools/call', { name, arguments: args, _meta: envelope() }, token);
      return { status: answer.status, challenge: answer.headers.get('www-authenticate') };
    };
    const direct = await exchange('create_issue', {});
    expect(direct.status).toBe(403);
    expect(await exchange('call_tool', { name: 'create_issue', arguments: {} })).toEqual(direct);
    expect((await exchange('call_tool', { name: 'list_issues', arguments: {} })).status).toBe(200);
  }, 240_000);
});
