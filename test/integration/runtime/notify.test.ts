import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import { envelope, generateAndCompile, limits, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';
import { listen, readStream, type MessageStream } from './notify-support.js';
import { startRedis, type RunningRedis } from './redis.js';

// Change notifications (manifest `notifications`): ctx.notify in a handler on one instance reaches the
// subscriptions/listen streams and legacy sessions of every instance over real Redis pub/sub, and of one process
// with the memory store, on HTTP and stdio.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'notified.yaml');
const today = 'notes://notes/today';
const legacyVersion = '2025-11-25';
const subscriptionKey = 'io.modelcontextprotocol/subscriptionId';

const handlers: Readonly<Record<string, string>> = {
  'src/handlers/tools/touch_note.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const touchNoteHandler: ToolHandler<'touch_note'> = async (input, ctx) => {
  ctx.notify.resourceUpdated(\`notes://notes/\${input.id}\`);
  return \`touched \${input.id}\`;
};
`,
  'src/handlers/tools/add_note.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const addNoteHandler: ToolHandler<'add_note'> = async (_input, ctx) => {
  ctx.notify.listChanged('resources');
  // Not declared in the manifest: refused, and the capabilities do not promise it.
  try {
    ctx.notify.listChanged('tools');
    return 'tools announced';
  } catch (error) {
    return \`added; \${(error as Error).message}\`;
  }
};
`,
  'src/handlers/resources/today.ts': `import type { ResourceHandler } from '../../generated/index.gen.js';

export const todayHandler: ResourceHandler<'today'> = async () => 'Buy milk.';
`,
};

const call = (server: RunningServer, name: string, args: Record<string, unknown>) =>
  rpc(server.url, 'tools/call', { name, arguments: args, _meta: envelope() });

const updated = (uri: string, id: unknown = 'listen-1') => ({
  jsonrpc: '2.0',
  method: 'notifications/resources/updated',
  params: { uri, _meta: { [subscriptionKey]: id } },
});

/** Opens a 2025-11-25 session over HTTP, its GET stream, and subscribes it to `uri`. */
async function legacySession(url: URL, uri: string): Promise<{ stream: MessageStream; capabilities: any }> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (body: unknown, session?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        ...headers,
        ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': legacyVersion }),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(limits.requestMs),
    });
  const init = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: legacyVersion, capabilities: {}, clientInfo: { name: 'notify-test', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id') ?? '';
  const text = await init.text();
  const initialized = JSON.parse(text.startsWith('{') ? text : (/data: (.*)/.exec(text)?.[1] ?? 'null'));
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  const abort = new AbortController();
  const get = await fetch(url, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': legacyVersion },
    signal: abort.signal,
  });
  expect(get.status).toBe(200);
  const subscribed = await post({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri } }, session);
  expect(await subscribed.text()).toContain('"result":{}');
  return { stream: readStream(get, abort), capabilities: initialized.result.capabilities };
}

describe('change notifications over Redis, two instances', () => {
  let redis: RunningRedis;
  let a: RunningServer;
  let b: RunningServer;
  const streams: MessageStream[] = [];

  beforeAll(async () => {
    const entry = generateAndCompile(manifest, 'runtime-notify-redis', handlers);
    redis = await startRedis();
    const env = { NOTIFIED_REDIS_URL: redis.url };
    [a, b] = await Promise.all([startHttpServer(entry, env), startHttpServer(entry, env)]);
  }, 240_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  }, 120_000);

  it('declares exactly the changes the manifest names', async () => {
    const discover = await rpc(a.url, 'server/discover', { _meta: envelope() });
    expect(discover.body.result.capabilities).toEqual({
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: false },
    });
  });

  it('a resourceUpdated published on A reaches a subscriptions/listen stream held on B within 1 s', async () => {
    const onB = await listen(b.url, { resourceSubscriptions: [today] });
    const listsOnly = await listen(b.url, { resourcesListChanged: true }, 'lists-only');
    streams.push(onB, listsOnly);
    expect(onB.messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [subscriptionKey]: 'listen-1' }, notifications: { resourceSubscriptions: [today] } },
    });
    // Another URI first: the stream subscribed to `today` only must not hear of it.
    expect((await call(a, 'touch_note', { id: 'other' })).body.result.content[0].text).toBe('touched other');
    expect((await call(a, 'touch_note', { id: 'today' })).body.result.content[0].text).toBe('touched today');
    const heard = await onB.next((m) => m.method === 'notifications/resources/updated', 1000);
    expect(heard).toEqual(updated(today));
    expect(onB.messages.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(1);
    // The filter holds: a stream listening for list changes only got no resources/updated.
    expect(listsOnly.messages.map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged']);
  });

  it('listChanged on B reaches a listen stream on A; an undeclared list is refused', async () => {
    const onA = await listen(a.url, { resourcesListChanged: true, toolsListChanged: true }, 7);
    streams.push(onA);
    // tools.listChanged is not declared: the acknowledgment leaves it out.
    expect(onA.messages[0]?.params.notifications).toEqual({ resourcesListChanged: true });
    const answer = await call(b, 'add_note', {});
    expect(answer.body.result.content[0].text).toBe(
      `added; ctx.notify.listChanged('tools') needs "tools" in notifications.listChanged in the manifest`,
    );
    expect(await onA.next((m) => m.method === 'notifications/resources/list_changed')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/list_changed',
      params: { _meta: { [subscriptionKey]: 7 } },
    });
  });

  it('a legacy session on B hears of its subscribed URI and of list changes published on A', async () => {
    const { stream, capabilities } = await legacySession(b.url, today);
    streams.push(stream);
    expect(capabilities).toEqual({
      logging: {},
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: false },
    });
    await call(a, 'touch_note', { id: 'elsewhere' });
    await call(a, 'touch_note', { id: 'today' });
    await call(a, 'add_note', {});
    await stream.next((m) => m.method === 'notifications/resources/list_changed');
    expect(stream.messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: today } },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
    ]);
  });
});

describe('change notifications with the memory store, one process', () => {
  let entry = '';
  let server: RunningServer;
  let stdio: RawStdio | undefined;

  beforeAll(async () => {
    const source = path.join(repoRoot, '.test-out', 'notified-memory.yaml');
    writeFileSync(source, readFileSync(manifest, 'utf8').replace(/^store: .*$/m, 'store: { type: memory }'));
    entry = generateAndCompile(source, 'runtime-notify-memory', handlers);
    server = await startHttpServer(entry, {});
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await stdio?.close();
  }, 60_000);

  it('delivers within the process over HTTP', async () => {
    const stream = await listen(server.url, { resourceSubscriptions: [today] });
    await call(server, 'touch_note', { id: 'today' });
    expect(await stream.next((m) => m.method === 'notifications/resources/updated')).toEqual(updated(today));
    stream.close();
  });

  it('delivers on a stdio listen subscription, tagged with its id', async () => {
    stdio = startRawStdio(entry);
    const listening = stdio;
    listening.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'sub',
        method: 'subscriptions/listen',
        params: { _meta: envelope({}), notifications: { resourceSubscriptions: [today], resourcesListChanged: true } },
      }),
    );
    // The acknowledgment is a notification (no id to wait on): read lines until it is there, boundedly.
    for (let i = 0; i < 300 && !listening.lines.some((line) => line.includes('subscriptions/acknowledged')); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(JSON.parse(listening.lines[0] ?? 'null')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { [subscriptionKey]: 'sub' },
        notifications: { resourceSubscriptions: [today], resourcesListChanged: true },
      },
    });
    const answer = await stdio.request({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add_note', arguments: {}, _meta: envelope() },
    });
    expect((answer.result as any).content[0].text).toMatch(/^added; /);
    await stdio.request({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'touch_note', arguments: { id: 'today' }, _meta: envelope() },
    });
    const notes = stdio.lines.map((line) => JSON.parse(line)).filter((m) => m.method?.startsWith('notifications/res'));
    expect(notes).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/list_changed',
        params: { _meta: { [subscriptionKey]: 'sub' } },
      },
      updated(today, 'sub'),
    ]);
  });

  it('delivers resources/updated to a legacy stdio session only after resources/subscribe', async () => {
    const legacy = startRawStdio(entry);
    try {
      const init = await legacy.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: legacyVersion, capabilities: {}, clientInfo: { name: 'notify-test', version: '1' } },
      });
      expect((init.result as any).capabilities).toEqual({
        logging: {},
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: false },
      });
      legacy.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const touch = (id: number) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'touch_note', arguments: { id: 'today' } },
      });
      await legacy.request(touch(2));
      expect(
        await legacy.request({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: today } }),
      ).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
      await legacy.request(touch(4));
      const notes = legacy.lines.map((line) => JSON.parse(line)).filter((m) => m.method?.startsWith('notifications/'));
      expect(notes).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: today } }]);
    } finally {
      await legacy.close();
    }
  });
});
