import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, generateAndCompile, limits, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';
import { postListen } from './notify-support.js';

// subscriptions/listen streams have caps of their own (manifest transports.http), apart from the call slots: idle
// streams of one principal never starve another's calls; a stream over a cap gets -31429; open streams get keep-alives
// and an idle one is ended with the listen result.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'listening.yaml');
const tokens = { alice: 'alice-listen-token-0123456789', bob: 'bob-listen-token-0123456789' } as const;
const env = { LISTENING_TOKENS: `${tokens.alice}=alice:notes.read;${tokens.bob}=bob:notes.read` };
const subscriptionKey = 'io.modelcontextprotocol/subscriptionId';
const serverInfoKey = 'io.modelcontextprotocol/serverInfo';
const serverInfo = { name: 'listening', version: '1.0.0' };
const handlers = {
  'src/handlers/tools/ping_note.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const pingNoteHandler: ToolHandler<'ping_note'> = async () => 'pong';
`,
};

/** An open listen response: its raw SSE text as it arrives (comments included), and its end. */
interface RawStream {
  readonly status: number;
  text(): string;
  /** Resolves once the text contains `part`; rejects after `timeoutMs`. */
  waitFor(part: string, timeoutMs?: number): Promise<void>;
  readonly ended: Promise<void>;
  close(): void;
}

async function listen(url: URL, token: string, id: string): Promise<RawStream> {
  const abort = new AbortController();
  const response = await postListen(url, { toolsListChanged: true }, id, abort, {}, token);
  let text = '';
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (let chunk = await reader?.read(); chunk?.done === false; chunk = await reader?.read())
        text += decoder.decode(chunk.value, { stream: true });
    } catch {
      // closed by the test
    }
  })();
  const waitFor = async (part: string, timeoutMs: number = limits.requestMs): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!text.includes(part)) {
      if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(part)} within ${timeoutMs} ms; got ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { status: response.status, text: () => text, waitFor, ended, close: () => abort.abort() };
}

const acknowledged = (id: string): string =>
  `data: ${JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { toolsListChanged: true }, _meta: { [subscriptionKey]: id } },
  })}`;

const refused = (id: string, limit: number, of: string) => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -31429,
    message: `Too many listen streams: ${limit} are open for ${of}; close one or retry later`,
    data: { limit },
  },
});

const call = (url: URL, token: string) =>
  rpc(url, 'tools/call', { name: 'ping_note', arguments: {}, _meta: envelope({}) }, token);

describe('listen streams capped apart from the call slots', () => {
  let server: RunningServer;
  const open: RawStream[] = [];

  beforeAll(async () => {
    const entry = generateAndCompile(manifest, 'runtime-listen-limits', handlers);
    server = await startHttpServer(entry, env);
  }, 180_000);

  afterAll(async () => {
    for (const stream of open) stream.close();
    await server?.stop();
  });

  it("holds 100 idle streams of one principal while another principal's calls are answered", async () => {
    // 100 is also maxConcurrentCalls: counted as calls, these streams took every slot.
    for (let batch = 0; batch < 100; batch += 20)
      open.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, i) => listen(server.url, tokens.alice, `alice-${batch + i}`)),
        )),
      );
    await Promise.all(open.map((stream, i) => stream.waitFor(acknowledged(`alice-${i}`))));
    expect(open.map((stream) => stream.status)).toEqual(Array(100).fill(200));
    const answered = await call(server.url, tokens.bob);
    expect([answered.status, answered.body.result.content]).toEqual([200, [{ type: 'text', text: 'pong' }]]);
    const listed = await rpc(server.url, 'tools/list', { _meta: envelope({}) }, tokens.bob);
    expect([listed.status, listed.body.result.tools.map((tool: { name: string }) => tool.name)]).toEqual([
      200,
      ['ping_note'],
    ]);
    // The caller holding the streams is not starved either.
    expect((await call(server.url, tokens.alice)).status).toBe(200);
  });

  it("refuses the principal's 101st stream with -31429, and the server's 102nd", async () => {
    const extra = await listen(server.url, tokens.alice, 'alice-100');
    await extra.ended;
    expect([extra.status, JSON.parse(extra.text())]).toEqual([400, refused('alice-100', 100, 'this caller')]);
    const bobs = await listen(server.url, tokens.bob, 'bob-0');
    open.push(bobs);
    await bobs.waitFor(acknowledged('bob-0'));
    const over = await listen(server.url, tokens.bob, 'bob-1');
    await over.ended;
    expect([over.status, JSON.parse(over.text())]).toEqual([400, refused('bob-1', 101, 'this server')]);
  });

  it('frees a place when a client closes its stream', async () => {
    open.shift()?.close();
    // The server learns of the close when the socket does; bounded retries until it has.
    let again = await listen(server.url, tokens.alice, 'alice-again');
    for (let i = 0; i < 50 && again.status === 400; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await listen(server.url, tokens.alice, 'alice-again');
    }
    open.push(again);
    await again.waitFor(acknowledged('alice-again'));
    expect(again.status).toBe(200);
  });

  it('writes a keep-alive comment to an open stream every listenKeepAlive (200ms)', async () => {
    const stream = open[open.length - 1] as RawStream;
    await stream.waitFor(': keepalive\n\n', 5_000);
    expect(stream.text().split(': keepalive\n\n').length).toBeGreaterThan(1);
  });
});

describe('an idle listen stream', () => {
  let server: RunningServer;

  beforeAll(async () => {
    // The same server with a short idle timeout.
    const idle = path.join(repoRoot, '.test-out', 'listening-idle.yaml');
    writeFileSync(idle, readFileSync(manifest, 'utf8').replace('listenIdleTimeout: 1h', 'listenIdleTimeout: 1s'));
    const entry = generateAndCompile(idle, 'runtime-listen-idle', handlers);
    server = await startHttpServer(entry, env);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('is ended after listenIdleTimeout (1s) with the listen result, keep-alives before it', async () => {
    const started = Date.now();
    const stream = await listen(server.url, tokens.alice, 'idle-1');
    await stream.ended;
    const elapsed = Date.now() - started;
    const result = {
      jsonrpc: '2.0',
      id: 'idle-1',
      result: {
        resultType: 'complete',
        _meta: {
          [subscriptionKey]: 'idle-1',
          [serverInfoKey]: serverInfo,
        },
      },
    };
    expect(stream.text()).toBe(
      `event: message\n${acknowledged('idle-1')}\n\n` +
        ': keepalive\n\n'.repeat(stream.text().split(': keepalive').length - 1) +
        `event: message\ndata: ${JSON.stringify(result)}\n\n`,
    );
    // Ended at the first keep-alive tick past the idle time (200 ms apart): about 1.0 to 1.2 s after it opened.
    expect(stream.text().split(': keepalive').length - 1).toBeGreaterThanOrEqual(3);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    // A new stream is admitted: the ended one no longer counts.
    const next = await listen(server.url, tokens.alice, 'idle-2');
    await next.waitFor(acknowledged('idle-2'));
    next.close();
  });

  it('is ended with the listen result when the server drains (SIGTERM)', async () => {
    const stream = await listen(server.url, tokens.alice, 'drained');
    await stream.waitFor(acknowledged('drained'));
    server.child.kill('SIGTERM');
    await stream.ended;
    const result = {
      jsonrpc: '2.0',
      id: 'drained',
      result: { resultType: 'complete', _meta: { [subscriptionKey]: 'drained', [serverInfoKey]: serverInfo } },
    };
    expect(stream.text().endsWith(`event: message\ndata: ${JSON.stringify(result)}\n\n`)).toBe(true);
  });
});
