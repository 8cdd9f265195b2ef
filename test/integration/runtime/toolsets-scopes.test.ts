import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  selectResourceURL,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, generateAndCompile, repoRoot, startHttpServer, type RunningServer } from './harness.js';
import { called, listed, post } from './toolsets-support.js';

// Toolsets and bearer scopes over real HTTP: a tool outside the selection is unknown whatever the token's scopes,
// a selected one still needs them, and a client of a path narrowed to a toolset authenticates with the endpoint's
// resource. The fixture: issues (list_issues, create_issue, each with its scope), repos (list_repos).

describe('toolsets and scopes compose', () => {
  const scoped = `mcpGen: 1
server: { name: scoped-desk, version: 1.0.0 }
protocol: { legacy: reject }
transports:
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
auth:
  type: bearer
  tokensEnv: SCOPED_TOKENS
  scopes: { issues.read: Read issues., issues.write: File issues. }
toolsets:
  issues: { description: Read and file issues., tags: [issues] }
  repos: { description: Browse repositories., tools: [list_repos] }
tools:
  list_issues:
    description: List the open issues of a repository, newest first.
    tags: [issues]
    scopes: [issues.read]
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
  create_issue:
    description: File a new issue in a repository and return its number.
    tags: [issues]
    scopes: [issues.write]
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
    input: { type: object, additionalProperties: false }
  list_repos:
    description: List the repositories the caller can see, by name.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
`;
  const token = 'reader-token-0123456789';
  const servers: RunningServer[] = [];
  let scopedEntry = '';
  beforeAll(() => {
    const file = path.join(repoRoot, '.test-out', 'runtime-toolsets-scoped.yaml');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, scoped);
    scopedEntry = generateAndCompile(file, 'runtime-toolsets-scoped', {});
  }, 240_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('checks the scopes of a selected tool; one outside the selection is unknown whatever the scopes', async () => {
    const start = async (env: Record<string, string>) => {
      const server = await startHttpServer(scopedEntry, { SCOPED_TOKENS: `${token}=reader:issues.read`, ...env });
      servers.push(server);
      return server.url;
    };
    const auth = { authorization: `Bearer ${token}` };
    const unknown = {
      status: 200,
      body: { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Tool <tool> not found' } },
    };
    const all = await start({});
    expect(((await called(all, 'create_issue', auth)) as { status: number }).status).toBe(403);
    expect(((await called(all, 'list_issues', auth)) as { status: number }).status).toBe(200);
    expect(await called(all, 'list_issues', { ...auth, 'mcp-toolsets': 'repos' })).toEqual(unknown);
    const mounted = await start({ SCOPED_DESK_READ_ONLY: '1' });
    expect(await called(mounted, 'create_issue', auth)).toEqual(unknown);
    expect(await listed(mounted, auth)).toEqual(['list_issues', 'list_repos']);
  }, 120_000);

  it('authenticates a client of a narrowed path with the endpoint resource, as the SDK client derives it', async () => {
    const server = await startHttpServer(scopedEntry, { SCOPED_TOKENS: `${token}=reader:issues.read` });
    servers.push(server);
    const narrowed = new URL('/mcp/x/repos', server.url);
    const refused = await post(narrowed, 'tools/list', {}, {});
    expect(refused.status).toBe(401);
    // The challenge names the endpoint's metadata, which names the endpoint: the SDK client accepts a resource
    // whose path is a prefix of the server URL, and asks for a token for it.
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(refused);
    expect(resourceMetadataUrl?.href).toBe(new URL('/.well-known/oauth-protected-resource/mcp', server.url).href);
    const metadata = await discoverOAuthProtectedResourceMetadata(narrowed, {
      resourceMetadataUrl: resourceMetadataUrl ?? '',
    });
    expect(metadata.resource).toBe(new URL('/mcp', server.url).href);
    // A client that skips the challenge and inserts the narrowed path into the well-known URL finds the same.
    const derived = await discoverOAuthProtectedResourceMetadata(narrowed);
    expect(derived).toEqual(metadata);
    const resource = await selectResourceURL(narrowed, {} as Parameters<typeof selectResourceURL>[1], metadata);
    expect(resource?.href).toBe(new URL('/mcp', server.url).href);
    // With that token the SDK client serves the path's toolsets.
    const client = await connectClient(narrowed, token, { answer: { action: 'decline' }, seen: [] });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_repos']);
    } finally {
      await client.close();
    }
  }, 120_000);
});
