import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGuarded, guardedEnv, handleKey, tokens, tokensEnv } from './guarded.js';
import {
  connectClient,
  envelope,
  get,
  repoRoot,
  requestWithHost,
  rpc,
  runToExit,
  startHttpServer,
  type RunningServer,
} from './harness.js';

// Bearer-token authorization of a generated server over real HTTP: every request is authenticated,
// per-tool scopes are enforced, handles are bound to the principal, stdio stays unauthenticated.

const dir = path.join(repoRoot, '.test-out', 'runtime-bearer');
const noElicitation = { answer: { action: 'decline' as const }, seen: [] };
let entry = '';
let server: RunningServer;
let metadataUrl = '';

beforeAll(async () => {
  entry = buildGuarded('runtime-bearer');
  server = await startHttpServer(entry, guardedEnv(path.join(dir, 'calls.log')));
  metadataUrl = `http://127.0.0.1:${server.url.port}/.well-known/oauth-protected-resource/mcp`;
});

afterAll(async () => {
  await server?.stop();
});

describe('bearer authorization over HTTP', () => {
  it('answers a request without a token 401, its challenge pointing at metadata that anyone can fetch', async () => {
    const answer = await rpc(server.url, 'tools/list', { _meta: envelope() });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    expect(answer.body).toEqual({ error: 'invalid_token', error_description: 'Missing Authorization header' });
    const metadata = await get(new URL(metadataUrl));
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toBe('application/json');
    expect(metadata.body).toEqual({
      resource: `http://127.0.0.1:${server.url.port}/mcp`,
      scopes_supported: ['items.read', 'items.write'],
      bearer_methods_supported: ['header'],
    });
  });

  it('names where it listens whatever Host a client sends: public URLs never come from request headers', async () => {
    const before = server.stderr().length;
    // localhost:1 passes the Host check (a loopback name, any port) but is not where the server listens.
    const metadata = await requestWithHost(new URL(metadataUrl), 'localhost:1');
    expect([metadata.status, JSON.parse(metadata.text).resource]).toEqual([
      200,
      `http://127.0.0.1:${server.url.port}/mcp`,
    ]);
    const challenged = await requestWithHost(server.url, 'localhost:1', '{}');
    expect([challenged.status, challenged.headers['www-authenticate']]).toEqual([
      401,
      `Bearer resource_metadata="${metadataUrl}"`,
    ]);
    // With userinfo the authority would be evil.com to a URL parser: refused before any URL is built, quietly.
    for (const host of ['localhost:1@evil.com', `127.0.0.1:${server.url.port}@evil.com`]) {
      const spoofed = await requestWithHost(new URL(metadataUrl), host);
      expect([host, spoofed.status, spoofed.text]).toEqual([
        host,
        400,
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: malformed Host header"}}',
      ]);
      expect((await requestWithHost(server.url, host, '{}')).status).toBe(400);
    }
    expect(server.stderr().slice(before)).toBe('');
  });

  it('authenticates every request, server/discover included', async () => {
    const answer = await rpc(server.url, 'server/discover', { _meta: envelope() });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
  });

  it('answers a wrong token, or a non-bearer scheme, 401 invalid_token', async () => {
    const wrong = await rpc(server.url, 'tools/list', { _meta: envelope() }, `${tokens.alice}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="Invalid token", resource_metadata="${metadataUrl}"`,
    );
    expect(wrong.body).toEqual({ error: 'invalid_token', error_description: 'Invalid token' });
    const basic = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${tokens.alice}` },
      body: '{}',
      signal: AbortSignal.timeout(30_000),
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="Invalid Authorization ' +
        `header format, expected 'Bearer TOKEN'", resource_metadata="${metadataUrl}"`,
    );
  });

  it("answers a call without the tool's scope 403 insufficient_scope naming the scope", async () => {
    const answer = await rpc(
      server.url,
      'tools/call',
      { name: 'start_draft', arguments: { name: 'x' }, _meta: envelope() },
      tokens.bob,
    );
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="Insufficient ' +
        `scope", scope="items.write", resource_metadata="${metadataUrl}"`,
    );
    expect(answer.body).toEqual({ error: 'insufficient_scope', error_description: 'Insufficient scope' });
  });

  it('serves the right token through the SDK client, with the principal and scopes from the token list', async () => {
    const bob = await connectClient(server.url, tokens.bob, noElicitation);
    expect((await bob.listTools()).tools.map((t) => t.name)).toEqual([
      'delete_item',
      'read_item',
      'save_draft',
      'start_draft',
    ]);
    const read = await bob.callTool({ name: 'read_item', arguments: { id: 'z' } });
    await bob.close();
    expect(read.content).toEqual([{ type: 'text', text: 'item z read by bob with scopes items.read' }]);
    // carol's token contains "=" characters: the token runs up to the last "=" of its entry.
    const carol = await rpc(
      server.url,
      'tools/call',
      { name: 'read_item', arguments: { id: 'y' }, _meta: envelope() },
      tokens.carol,
    );
    expect(carol.body.result.content).toEqual([
      { type: 'text', text: 'item y read by carol with scopes items.read items.write' },
    ]);
  });

  it("binds handles to the principal: alice's draft is refused for carol and accepted for alice", async () => {
    const started = await rpc(
      server.url,
      'tools/call',
      { name: 'start_draft', arguments: { name: 'n1' }, _meta: envelope() },
      tokens.alice,
    );
    const draft = started.body.result.structuredContent.draft as string;
    expect(draft).toMatch(/^h1\./);
    const stolen = await rpc(
      server.url,
      'tools/call',
      { name: 'save_draft', arguments: { draft }, _meta: envelope() },
      tokens.carol,
    );
    expect(stolen.body.result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool save_draft: this item_draft handle was issued to someone else',
        },
      ],
    });
    const saved = await rpc(
      server.url,
      'tools/call',
      { name: 'save_draft', arguments: { draft }, _meta: envelope() },
      tokens.alice,
    );
    expect(saved.body.result.content).toEqual([{ type: 'text', text: 'saved draft-n1 for alice' }]);
  });

  it('still checks Origin before authentication and keeps 404/405 for other paths and methods', async () => {
    const evil = await fetch(server.url, {
      method: 'POST',
      headers: { origin: 'http://evil.example', authorization: `Bearer ${tokens.alice}` },
      body: '{}',
      signal: AbortSignal.timeout(30_000),
    });
    expect(evil.status).toBe(403);
    expect((await get(server.url)).status).toBe(405);
    expect((await get(new URL('/other', server.url))).status).toBe(404);
    const post = await fetch(metadataUrl, { method: 'POST', body: '{}', signal: AbortSignal.timeout(30_000) });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('bearer configuration at start-up', () => {
  const http = ['--transport', 'http', '--host', '127.0.0.1', '--port', '0'];
  // The store reports its health at start (docs/deployment.md), before the keys and the host are checked.
  const memoryStoreLine =
    'store: memory (this process only): approvals and idempotency keys are not shared with ' +
    'other instances and do not survive a restart; set store.type: redis to share them\n';

  it('refuses to serve HTTP without the token list, or with a short token', () => {
    const missing = runToExit(entry, http, { GUARDED_HANDLE_KEY: handleKey, GUARDED_STATE_KEY: handleKey });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      'guarded: GUARDED_TOKENS is not set; set it to token=principal:scope1,scope2;token2=principal2:scope\n',
    );
    const short = runToExit(entry, http, {
      GUARDED_TOKENS: `${tokensEnv};short=eve:items.read`,
      GUARDED_HANDLE_KEY: handleKey,
      GUARDED_STATE_KEY: handleKey,
    });
    expect(short.status).toBe(1);
    expect(short.stderr).toBe('guarded: GUARDED_TOKENS: the token of entry 4 is shorter than 16 characters\n');
  });

  it('refuses a non-loopback host without the approval key (no ephemeral key there)', () => {
    const result = runToExit(entry, ['--transport', 'http', '--host', '192.0.2.1', '--port', '0'], {
      GUARDED_TOKENS: tokensEnv,
      GUARDED_HANDLE_KEY: handleKey,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      memoryStoreLine +
        'guarded: GUARDED_STATE_KEY is not set; set it to a random secret of at least ' +
        '32 bytes (e.g. `openssl rand -hex 32`) and share it between all instances\n',
    );
  });

  it('refuses a wildcard host without auth.resource: no address a client could use to name in the metadata', () => {
    const result = runToExit(entry, ['--transport', 'http', '--host', '0.0.0.0', '--port', '0'], guardedEnv(''));
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      memoryStoreLine +
        'guarded: bearer auth on the wildcard host "0.0.0.0" needs auth.resource, the public URL of the MCP ' +
        'endpoint (e.g. https://mcp.example.com/mcp); the metadata and challenges advertise it\n',
    );
  });

  it('does not ship the OAuth runtime (or jose) in a bearer project', () => {
    const runtime = path.join(dir, 'src', 'generated', 'runtime');
    expect(existsSync(path.join(runtime, 'oauth.gen.ts'))).toBe(false);
    expect(existsSync(path.join(runtime, 'auth.gen.ts'))).toBe(true);
    const mentions = readdirSync(runtime).filter((file) =>
      /from 'jose'/.test(readFileSync(path.join(runtime, file), 'utf8')),
    );
    expect(mentions).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).dependencies).toEqual({
      '@modelcontextprotocol/server': '2.4.0',
    });
  });
});

describe('stdio has no authorization', () => {
  it('serves every tool to the anonymous principal', async () => {
    const client = new Client(
      { name: 'runtime-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [entry, '--transport', 'stdio'],
        env: { PATH: process.env.PATH ?? '', GUARDED_HANDLE_KEY: handleKey, GUARDED_STATE_KEY: handleKey },
      }),
    );
    try {
      const read = await client.callTool({ name: 'read_item', arguments: { id: 's' } });
      expect(read.content).toEqual([{ type: 'text', text: 'item s read by anonymous with scopes ' }]);
    } finally {
      await client.close();
    }
  });
});
