import { McpServer, type AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { LegacySessions, defaultLegacyLimits } from '../../templates/runtime/legacy-http.gen.js';

// The legacy adapter's session bookkeeping (templates/runtime/legacy-http.gen.ts) on a clock the
// test controls: the cap, idle expiry, open streams, and sessions bound to their principal.

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1.0.0' } },
};
const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let clock = 0;
let legs: LegacySessions[] = [];

/** A server with one tool that logs a line, as a handler's ctx.log does (invoke.gen.ts). */
function logging(): McpServer {
  const server = new McpServer({ name: 'unit', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('chatty', { description: 'Logs a line.' }, async (ctx) => {
    await ctx.mcpReq.log('info', 'a line from the handler');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return server;
}

function leg(maxSessions: number, idleMs: number): LegacySessions {
  const created = new LegacySessions(
    logging,
    { maxSessions, idleMs },
    () => {},
    () => clock,
  );
  legs.push(created);
  return created;
}

afterEach(() => {
  for (const created of legs) created.close();
  legs = [];
  clock = 0;
});

const auth = (principal: string): AuthInfo => ({ token: `t-${principal}`, clientId: principal, scopes: [] });

async function open(sessions: LegacySessions, authInfo?: AuthInfo): Promise<string> {
  const response = await sessions.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers }), {
    parsedBody: initialize,
    ...(authInfo === undefined ? {} : { authInfo }),
  });
  await response.text();
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id') ?? '';
}

async function status(sessions: LegacySessions, id: string, authInfo?: AuthInfo): Promise<number> {
  const request = new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
  });
  const response = await sessions.fetch(request, { parsedBody: list, ...(authInfo === undefined ? {} : { authInfo }) });
  await response.text();
  return response.status;
}

describe('legacy sessions', () => {
  it('defaults to 256 sessions and 30 minutes of idle time', () => {
    expect(defaultLegacyLimits).toEqual({ maxSessions: 256, idleMs: 1_800_000 });
  });

  it('closes the least recently used session when the cap is reached', async () => {
    const sessions = leg(3, 60_000);
    const [a, b, c] = [await open(sessions), await open(sessions), await open(sessions)];
    expect(await status(sessions, a)).toBe(200); // a is now the most recently used; b the least
    const d = await open(sessions);
    expect(sessions.size).toBe(3);
    expect([
      await status(sessions, a),
      await status(sessions, b),
      await status(sessions, c),
      await status(sessions, d),
    ]).toEqual([200, 404, 200, 200]);
  });

  it('closes a session after the idle time, and never one that was used within it', async () => {
    const sessions = leg(10, 60_000);
    const [idle, busy] = [await open(sessions), await open(sessions)];
    clock = 50_000;
    expect(await status(sessions, busy)).toBe(200);
    clock = 60_001;
    expect(await status(sessions, idle)).toBe(404);
    expect(await status(sessions, busy)).toBe(200);
    expect(sessions.size).toBe(1);
  });

  it('keeps a session with an open GET stream past the idle time, and expires it once the stream ends', async () => {
    const sessions = leg(10, 60_000);
    const id = await open(sessions);
    const controller = new AbortController();
    const stream = await sessions.fetch(
      new Request('http://127.0.0.1/mcp', {
        headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
        signal: controller.signal,
      }),
      {},
    );
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    clock = 10 * 60_000;
    expect(await status(sessions, id)).toBe(200);
    clock = 20 * 60_000;
    await reader?.cancel();
    clock = 21 * 60_000 + 1;
    expect(await status(sessions, id)).toBe(404);
  });

  it('tells another principal that a session does not exist', async () => {
    const sessions = leg(10, 60_000);
    const id = await open(sessions, auth('alice'));
    expect(await status(sessions, id, auth('mallory'))).toBe(404);
    expect(await status(sessions, id)).toBe(404);
    expect(await status(sessions, id, auth('alice'))).toBe(200);
  });

  it("sends a handler's log lines only once the client asked via logging/setLevel, at or above its level", async () => {
    const sessions = leg(10, 60_000);
    const id = await open(sessions);
    const post = async (body: Record<string, unknown>): Promise<string> => {
      const request = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      });
      return (await sessions.fetch(request, { parsedBody: body })).text();
    };
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'chatty', arguments: {} } };
    expect(await post(call)).not.toContain('notifications/message');
    expect(await post({ jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'warning' } })).toContain(
      '"result":{}',
    );
    expect(await post({ ...call, id: 5 })).not.toContain('notifications/message');
    await post({ jsonrpc: '2.0', id: 6, method: 'logging/setLevel', params: { level: 'info' } });
    expect(await post({ ...call, id: 7 })).toContain(
      '"method":"notifications/message","params":{"level":"info","data":"a line from the handler"}',
    );
  });

  it('answers a POST without a session that is not initialize statelessly, as the SDK does', async () => {
    const sessions = leg(10, 60_000);
    const response = await sessions.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers }), {
      parsedBody: list,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"name":"chatty"');
    expect(sessions.size).toBe(0);
  });
});
