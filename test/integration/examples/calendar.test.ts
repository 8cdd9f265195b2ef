import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope as httpEnvelope, get, rpc, startHttpServer, type RunningServer } from '../runtime/harness.js';
import { exampleDir } from '../../support/examples.js';
import { repoRoot } from '../../support/golden.js';
import { compileProject, startJwks } from '../../support/servers.js';
import { compileExample, connectStdio, newClient, textOf, type Elicitor } from './support.js';

// examples/calendar: the committed project compiled and driven over stdio by the official client, and, for
// OAuth over HTTP, the same handlers in a project generated from the manifest with only jwksUri pointing at
// a JWKS served by this test on 127.0.0.1 (the runtime has no flag or variable to override jwksUri; the
// issuer, resource and scopes stay the manifest's).

const example = exampleDir('calendar');
const issuer = 'https://auth.example.com';
const resource = 'https://calendar.example.com/mcp';
const metadataUrl = 'https://calendar.example.com/.well-known/oauth-protected-resource/mcp';

const seeded = [
  {
    id: 'evt_1',
    title: 'Team standup',
    start: '2026-08-03T09:00:00Z',
    end: '2026-08-03T09:15:00Z',
    attendees: ['ana@example.com', 'ben@example.com'],
  },
  {
    id: 'evt_2',
    title: 'Design review',
    start: '2026-08-03T14:00:00Z',
    end: '2026-08-03T15:00:00Z',
    location: 'Room 2',
    attendees: ['ana@example.com', 'chen@example.com'],
  },
  {
    id: 'evt_3',
    title: 'Team standup',
    start: '2026-08-04T09:00:00Z',
    end: '2026-08-04T09:15:00Z',
    attendees: ['ana@example.com', 'ben@example.com'],
  },
  {
    id: 'evt_4',
    title: 'Release planning',
    start: '2026-08-04T10:00:00Z',
    end: '2026-08-04T11:30:00Z',
    location: 'Room 1',
    attendees: ['ben@example.com', 'dana@example.com'],
  },
];
const retro = {
  id: 'evt_5',
  title: 'Launch retro',
  start: '2026-08-05T13:30:00Z',
  end: '2026-08-05T14:15:00Z',
  location: 'Room 3',
  attendees: ['ana@example.com', 'ben@example.com'],
};
const accept: Elicitor['answer'] = { action: 'accept', content: { confirm: true } };

/** The structuredContent of a successful call. */
async function structured(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

/** The JSON-RPC error of a request that must fail. */
async function rpcError(request: Promise<unknown>): Promise<{ code: unknown; message: unknown }> {
  try {
    await request;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  }
  throw new Error('the request succeeded');
}

/** Start a draft, add two attendees (one twice, in another case), schedule it: the planned retro. */
async function planRetro(client: Client): Promise<void> {
  const started = (await structured(client, 'start_event_draft', {
    title: 'Launch retro',
    start: '2026-08-05T15:30:00+02:00',
    durationMinutes: 45,
    location: 'Room 3',
  })) as { draft: string };
  const draft = started.draft;
  expect(draft).toMatch(/^h1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  expect(await structured(client, 'add_attendee', { draft, email: 'Ana@Example.com' })).toEqual({
    attendees: ['ana@example.com'],
  });
  expect(await structured(client, 'add_attendee', { draft, email: 'ana@example.com' })).toEqual({
    attendees: ['ana@example.com'],
  });
  expect(await structured(client, 'add_attendee', { draft, email: 'ben@example.com' })).toEqual({
    attendees: ['ana@example.com', 'ben@example.com'],
  });
  expect(await structured(client, 'find_events', { from: '2026-08-05', to: '2026-08-06' })).toEqual({ events: [] });
  expect(await structured(client, 'schedule_event', { draft })).toEqual({ event: retro });
  expect(await structured(client, 'find_events', { from: '2026-08-05', to: '2026-08-06' })).toEqual({
    events: [retro],
  });
  const twice = await client.callTool({ name: 'schedule_event', arguments: { draft } });
  expect(twice.isError).toBe(true);
  expect(textOf(twice)).toBe('This event draft was already scheduled as evt_5; start a new draft for another event.');
}

describe('examples/calendar over stdio', () => {
  let client: Client;
  const elicitor: Elicitor = { answer: { action: 'decline' }, seen: [] };

  beforeAll(async () => {
    client = await connectStdio(compileExample('calendar'), elicitor);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
  });

  it('lists six tools, two resource templates and two prompts, sorted by name', async () => {
    expect((await client.listTools()).tools.map((t) => [t.name, t.annotations?.destructiveHint ?? null])).toEqual([
      ['add_attendee', false],
      ['delete_event', true],
      ['find_events', null],
      ['schedule_event', false],
      ['send_invites', true],
      ['start_event_draft', false],
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => [t.name, t.uriTemplate])).toEqual([
      ['day', 'calendar://days/{date}'],
      ['event', 'calendar://events/{id}'],
    ]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['daily_agenda', 'plan_meeting']);
  });

  it('finds the seeded events, earliest first, within [from, to)', async () => {
    expect(await structured(client, 'find_events', { from: '2026-08-03', to: '2026-08-05' })).toEqual({
      events: seeded,
    });
    expect(await structured(client, 'find_events', { from: '2026-08-04', to: '2026-08-05', limit: 1 })).toEqual({
      events: [seeded[2]],
    });
    const backwards = await client.callTool({
      name: 'find_events',
      arguments: { from: '2026-08-05', to: '2026-08-03' },
    });
    expect(textOf(backwards)).toBe(
      'to (2026-08-03) must be after from (2026-08-05); to is the first day NOT included.',
    );
  });

  it('plans an event through a draft handle: issue, add attendees, schedule (once)', async () => {
    await planRetro(client);
    const read = await client.readResource({ uri: 'calendar://events/evt_5' });
    expect(read.contents).toEqual([
      { uri: 'calendar://events/evt_5', mimeType: 'application/json', text: JSON.stringify(retro, null, 2) },
    ]);
    const day = await client.readResource({ uri: 'calendar://days/2026-08-05' });
    expect(JSON.parse((day.contents[0] as { text: string }).text)).toEqual({ date: '2026-08-05', events: [retro] });
  });

  it('refuses a forged draft handle before the handler runs', async () => {
    const result = await client.callTool({
      name: 'add_attendee',
      arguments: { draft: 'h1.eyJrIjoiZXZlbnRfZHJhZnQifQ.forged', email: 'eve@example.com' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Invalid arguments for tool add_attendee: not a valid event_draft handle');
  });

  it('delete_event asks first: declined, the event is still there; accepted, it is gone', async () => {
    elicitor.seen.length = 0;
    elicitor.answer = { action: 'decline' };
    const declined = await client.callTool({ name: 'delete_event', arguments: { id: 'evt_1' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toBe('The user declined "Delete an event" (delete_event); nothing was done.');
    expect(elicitor.seen.map((p) => p.message)).toEqual([
      'Approve running "Delete an event" (delete_event) with arguments {"id":"evt_1"}?',
    ]);
    expect((await client.readResource({ uri: 'calendar://events/evt_1' }, { cacheMode: 'bypass' })).contents).toEqual([
      { uri: 'calendar://events/evt_1', mimeType: 'application/json', text: JSON.stringify(seeded[0], null, 2) },
    ]);

    elicitor.answer = accept;
    const accepted = await client.callTool({ name: 'delete_event', arguments: { id: 'evt_1' } });
    expect(accepted.isError).toBeUndefined();
    expect(textOf(accepted)).toBe('Deleted event evt_1 "Team standup" (2026-08-03T09:00:00Z).');
    expect(await rpcError(client.readResource({ uri: 'calendar://events/evt_1' }, { cacheMode: 'bypass' }))).toEqual({
      code: -32602,
      message: 'Resource not found: calendar://events/evt_1',
    });
    expect(await structured(client, 'find_events', { from: '2026-08-03', to: '2026-08-04' })).toEqual({
      events: [seeded[1]],
    });
    const again = await client.callTool({ name: 'delete_event', arguments: { id: 'evt_1' } });
    expect(textOf(again)).toBe('There is no event evt_1; nothing was deleted.');
    elicitor.answer = { action: 'decline' };
  });

  it('send_invites asks first and then records one invitation per attendee', async () => {
    elicitor.answer = { action: 'cancel' };
    const args = { id: 'evt_2', idempotencyKey: 'invite-evt_2-0001' };
    const cancelled = await client.callTool({ name: 'send_invites', arguments: args });
    expect(textOf(cancelled)).toBe('The user cancelled "Send invitations" (send_invites); nothing was done.');
    elicitor.answer = accept;
    expect(await structured(client, 'send_invites', args)).toEqual({
      eventId: 'evt_2',
      sentTo: ['ana@example.com', 'chen@example.com'],
    });
    // A retry with the same key gets the stored result: nobody is asked again and nothing is sent twice.
    elicitor.answer = { action: 'decline' };
    expect(await structured(client, 'send_invites', args)).toEqual({
      eventId: 'evt_2',
      sentTo: ['ana@example.com', 'chen@example.com'],
    });
    const reused = await client.callTool({
      name: 'send_invites',
      arguments: { id: 'evt_3', idempotencyKey: 'invite-evt_2-0001' },
    });
    expect(textOf(reused)).toBe(
      'The idempotencyKey was already used for a call of "send_invites" with ' +
        'other arguments; nothing was done. Use a new key for a new operation.',
    );
  });

  it('reads a day; a date that is not a real day is -32602', async () => {
    const day = await client.readResource({ uri: 'calendar://days/2026-08-04' });
    expect(day.contents[0]).toMatchObject({ uri: 'calendar://days/2026-08-04', mimeType: 'application/json' });
    expect(JSON.parse((day.contents[0] as { text: string }).text)).toEqual({
      date: '2026-08-04',
      events: [seeded[2], seeded[3]],
    });
    expect(await rpcError(client.readResource({ uri: 'calendar://days/2026-02-30' }))).toEqual({
      code: -32602,
      message: 'Resource not found: calendar://days/2026-02-30',
    });
  });

  it('renders plan_meeting from its fixed message and daily_agenda from its handler', async () => {
    expect(
      (
        await client.getPrompt({
          name: 'plan_meeting',
          arguments: { topic: 'the launch', attendees: 'ana@example.com, ben@example.com' },
        })
      ).messages,
    ).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            'Plan a meeting about the launch. Find a free slot with find_events, start a ' +
            'draft, add each of these attendees (none if the list is empty): [ana@example.com, ' +
            'ben@example.com], then schedule it and ask me before sending invitations.',
        },
      },
    ]);
    expect((await client.getPrompt({ name: 'daily_agenda', arguments: { date: '2026-08-04' } })).messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            'These are my events on 2026-08-04 (UTC):\n' +
            '- 09:00-09:15 UTC "Team standup" (evt_3; ana@example.com, ben@example.com)\n' +
            '- 10:00-11:30 UTC "Release planning" in "Room 1" (evt_4; ben@example.com, dana@example.com)\n\n' +
            'Prepare a short agenda (three bullet points at most) for each event, in this order.',
        },
      },
    ]);
    expect((await client.getPrompt({ name: 'daily_agenda', arguments: { date: '2026-09-01' } })).messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'I have no events on 2026-09-01 (UTC). Suggest how to use the free day.' },
      },
    ]);
  });
});

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
