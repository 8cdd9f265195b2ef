import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope as httpEnvelope, get, rpc, startHttpServer, type RunningServer } from '../runtime/harness.js';
import { repoRoot } from '../../support/golden.js';
import { compileProject, startJwks } from '../../support/servers.js';
import { accept, example, planRetro, seeded, structured } from './calendar-support.js';
import { newClient, textOf, type Elicitor } from './support.js';

// examples/calendar over HTTP with OAuth: the same handlers in a project generated from the manifest with only
// jwksUri pointing at a JWKS served by this test on 127.0.0.1 (the runtime has no flag or variable to override
// jwksUri; the issuer, resource and scopes stay the manifest's).

const issuer = 'https://auth.example.com';
const resource = 'https://calendar.example.com/mcp';
const metadataUrl = 'https://calendar.example.com/.well-known/oauth-protected-resource/mcp';

describe('examples/calendar over HTTP with OAuth', () => {
  const dir = path.join(repoRoot, '.test-out', 'examples-calendar-http');
  let jwks: Server;
  let server: RunningServer;
  let signingKey: CryptoKey;
  const clients: Client[] = [];

  /** An access token for `sub` with `scope`, from the manifest's issuer for the manifest's resource. */
  async function token(sub: string, scope: string, claims: JWTPayload = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer((claims.iss as string | undefined) ?? issuer)
      .setAudience(resource)
      .setSubject(sub)
      .setIssuedAt(now - 60)
      .setExpirationTime(now + 300)
      .sign(signingKey);
  }

  async function connect(accessToken: string, elicitor: Elicitor): Promise<Client> {
    const client = newClient(elicitor);
    await client.connect(
      new StreamableHTTPClientTransport(server.url, { authProvider: { token: async () => accessToken } }),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    const started = await startJwks(pair.publicKey);
    jwks = started.server;

    const manifest = readFileSync(path.join(example, 'mcp.yaml'), 'utf8');
    const local = manifest.replace(
      'jwksUri: https://auth.example.com/.well-known/jwks.json',
      `jwksUri: ${started.url}`,
    );
    expect(local).not.toBe(manifest);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcp.yaml'), local);
    const generate = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', path.join(dir, 'mcp.yaml')],
      { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
    );
    if (generate.status !== 0)
      throw new Error(`mcp-gen generate failed (run npm run build first):\n${generate.stdout}${generate.stderr}`);
    for (const owned of ['src/handlers', 'src/lib', 'src/main.ts'])
      cpSync(path.join(example, owned), path.join(dir, owned), { recursive: true, force: true });
    const entry = compileProject(dir, path.join(dir, 'dist'));
    server = await startHttpServer(entry, {
      CALENDAR_HANDLE_KEY: 'calendar-handle-key-0123456789abcdef-0123',
      CALENDAR_STATE_KEY: 'calendar-state-key-0123456789abcdef-01234',
    });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await server?.stop();
    await new Promise((resolve) => (jwks === undefined ? resolve(undefined) : jwks.close(resolve)));
  });

  it('answers a request without a token 401, pointing at the resource metadata of the manifest', async () => {
    const answer = await rpc(server.url, 'tools/list', { _meta: httpEnvelope() });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = await get(new URL('/.well-known/oauth-protected-resource/mcp', server.url));
    expect(metadata.body).toEqual({
      resource,
      authorization_servers: [issuer],
      scopes_supported: ['calendar.invite', 'calendar.read', 'calendar.write'],
      bearer_methods_supported: ['header'],
    });
    const foreign = await rpc(
      server.url,
      'tools/list',
      { _meta: httpEnvelope() },
      await token('alice', 'calendar.read', { iss: 'https://evil.example.com' }),
    );
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="Invalid token", resource_metadata="${metadataUrl}"`,
    );
  });

  it('enforces per-tool scopes: read-only bob finds but may not plan; only calendar.invite sends invites', async () => {
    const bob = await connect(await token('bob', 'calendar.read'), { answer: { action: 'decline' }, seen: [] });
    expect(await structured(bob, 'find_events', { from: '2026-08-04', to: '2026-08-05' })).toEqual({
      events: [seeded[2], seeded[3]],
    });
    const start = await rpc(
      server.url,
      'tools/call',
      {
        name: 'start_event_draft',
        arguments: { title: 'x', start: '2026-08-05T10:00:00Z', durationMinutes: 30 },
        _meta: httpEnvelope(),
      },
      await token('bob', 'calendar.read'),
    );
    expect(start.status).toBe(403);
    expect(start.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="Insufficient ' +
        `scope", scope="calendar.write", resource_metadata="${metadataUrl}"`,
    );
    const invite = await rpc(
      server.url,
      'tools/call',
      { name: 'send_invites', arguments: { id: 'evt_2', idempotencyKey: 'invite-evt_2-0002' }, _meta: httpEnvelope() },
      await token('carol', 'calendar.read calendar.write'),
    );
    expect(invite.status).toBe(403);
    expect(invite.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="Insufficient ' +
        `scope", scope="calendar.invite", resource_metadata="${metadataUrl}"`,
    );
  });

  it("plans an event through a draft handle bound to its owner: carol cannot use alice's draft", async () => {
    const alice = await connect(await token('alice', 'calendar.read calendar.write calendar.invite'), {
      answer: accept,
      seen: [],
    });
    await planRetro(alice);
    const draft = (
      (await structured(alice, 'start_event_draft', {
        title: 'Private',
        start: '2026-08-06T08:00:00Z',
        durationMinutes: 30,
      })) as { draft: string }
    ).draft;
    const carol = await connect(await token('carol', 'calendar.read calendar.write'), { answer: accept, seen: [] });
    const stolen = await carol.callTool({ name: 'add_attendee', arguments: { draft, email: 'carol@example.com' } });
    expect(stolen.isError).toBe(true);
    expect(textOf(stolen)).toBe(
      'Invalid arguments for tool add_attendee: this event_draft handle was issued to someone else',
    );
  });

  it('delete_event and send_invites ask alice first over HTTP; declined changes nothing, accepted acts', async () => {
    const elicitor: Elicitor = { answer: { action: 'decline' }, seen: [] };
    const alice = await connect(await token('alice', 'calendar.read calendar.write calendar.invite'), elicitor);
    const declined = await alice.callTool({ name: 'delete_event', arguments: { id: 'evt_4' } });
    expect(textOf(declined)).toBe('The user declined "Delete an event" (delete_event); nothing was done.');
    expect(await structured(alice, 'find_events', { from: '2026-08-04', to: '2026-08-05' })).toEqual({
      events: [seeded[2], seeded[3]],
    });
    elicitor.answer = accept;
    expect(await structured(alice, 'send_invites', { id: 'evt_4', idempotencyKey: 'invite-evt_4-0001' })).toEqual({
      eventId: 'evt_4',
      sentTo: ['ben@example.com', 'dana@example.com'],
    });
    expect(textOf(await alice.callTool({ name: 'delete_event', arguments: { id: 'evt_4' } }))).toBe(
      'Deleted event evt_4 "Release planning" (2026-08-04T10:00:00Z).',
    );
    expect(await structured(alice, 'find_events', { from: '2026-08-04', to: '2026-08-05' })).toEqual({
      events: [seeded[2]],
    });
    expect(elicitor.seen.map((p) => p.message)).toEqual([
      'Approve running "Delete an event" (delete_event) with arguments {"id":"evt_4"}?',
      'Approve running "Send invitations" (send_invites) with ' +
        'arguments {"id":"evt_4","idempotencyKey":"invite-evt_4-0001"}?',
      'Approve running "Delete an event" (delete_event) with arguments {"id":"evt_4"}?',
    ]);
  });
});
