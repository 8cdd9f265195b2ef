import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { exitOf } from '../protocol/support.js';
import { startRawStdio } from '../../support/servers.js';
import { buildDeadlines, count, post, waitFor } from './deadlines-support.js';
import { envelope, rpc, startHttpServer, version, type RunningServer } from './harness.js';

// Deadlines, cancellation, limits and shutdown of a generated server, over real stdio and real HTTP:
// a handler sees ctx.signal abort when its client cancels or goes away, a timeout answers a tool error
// even when the handler ignores the signal, over-cap requests get 503, and SIGTERM drains cleanly.

let entry: string;

beforeAll(() => {
  entry = buildDeadlines();
}, 180_000);

describe('cancellation', () => {
  it('aborts ctx.signal within 100 ms of a stdio notifications/cancelled and sends nothing for the call', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client(
      { name: 'deadlines-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: version } } },
    );
    await client.connect(transport);
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait', arguments: { tag: 'stdio' } }, { signal: controller.signal });
      await waitFor(() => stderr, /started stdio/);
      const cancelledAt = Date.now();
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      const [, at] = await waitFor(() => stderr, /aborted stdio at (\d+)/);
      expect(Number(at) - cancelledAt).toBeLessThan(100);
      // The connection still serves calls afterwards.
      expect((await client.callTool({ name: 'measure', arguments: { data: 'abc' } })).content).toEqual([
        { type: 'text', text: '3' },
      ]);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('on stdio answers nothing at all for a cancelled call, and keeps serving', async () => {
    const server = startRawStdio(entry);
    try {
      server.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'wait', arguments: { tag: 'raw' }, _meta: envelope({}) },
        }),
      );
      await waitFor(server.stderr, /started raw/);
      server.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 1, reason: 'stop', _meta: envelope({}) },
        }),
      );
      await waitFor(server.stderr, /aborted raw/);
      const reply = await server.request({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'measure', arguments: { data: 'abcd' }, _meta: envelope({}) },
      });
      expect(reply.result).toMatchObject({ content: [{ type: 'text', text: '4' }] });
      // The handler returned 'late' once aborted; give a stray answer time to show up, then check none did.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.lines.map((line) => JSON.parse(line).id)).toEqual([2]);
      expect(await server.close()).toBe(0);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('aborts ctx.signal within 100 ms of an HTTP client closing its connection', async () => {
    const server = await startHttpServer(entry, {});
    try {
      const call = post(server.url, 'wait', { tag: 'http' }, 1);
      call.done.catch(() => undefined);
      await waitFor(server.stderr, /started http/);
      const closedAt = Date.now();
      call.abort();
      const [, at] = await waitFor(server.stderr, /aborted http at (\d+)/);
      expect(Number(at) - closedAt).toBeLessThan(100);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('stdio in-flight cap', () => {
  it('answers a request over the cap (2) with -32000 at once, and serves again once a place is free', async () => {
    const server = startRawStdio(entry);
    try {
      const call = (id: number, name: string, args: Record<string, unknown>) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name, arguments: args, _meta: envelope({}) },
        });
      server.send(call(1, 'wait', { tag: 'one' }));
      server.send(call(2, 'wait', { tag: 'two' }));
      await waitFor(server.stderr, /started two/);
      const refused = await server.request(JSON.parse(call(3, 'measure', { data: 'abc' })));
      expect(refused).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32000, message: 'Server busy: 2 requests in flight; retry later' },
      });
      server.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 1, reason: 'stop', _meta: envelope({}) },
        }),
      );
      await waitFor(server.stderr, /aborted one/);
      const served = await server.request(JSON.parse(call(4, 'measure', { data: 'abcd' })));
      expect(served.result).toMatchObject({ content: [{ type: 'text', text: '4' }] });
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('progress', () => {
  it('is rate-limited to one notification per 25 ms, and the final one always arrives', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry], stderr: 'pipe' });
    const client = new Client(
      { name: 'deadlines-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: version } } },
    );
    await client.connect(transport);
    try {
      const seen: number[] = [];
      const reply = await client.callTool(
        { name: 'chatty', arguments: {} },
        { onprogress: (p) => seen.push(p.progress) },
      );
      const elapsed = Number((reply.content as { text: string }[])[0]?.text);
      // The first call always goes out; then one per 25 ms of the loop's run; then the final one.
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.length).toBeLessThanOrEqual(Math.floor(elapsed / 25) + 2);
      expect(seen[0]).toBe(1);
      expect(seen[seen.length - 1]).toBe(2000);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('deadlines', () => {
  it('answers a timeout with a tool error naming it, though the handler ignores its signal', async () => {
    const server = await startHttpServer(entry, {});
    try {
      const started = Date.now();
      const reply = await rpc(server.url, 'tools/call', {
        name: 'stubborn',
        arguments: { ms: 20_000 },
        _meta: envelope({}),
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(reply.status).toBe(200);
      expect(reply.body.result).toMatchObject({
        content: [{ type: 'text', text: 'The tool "stubborn" timed out after 3 s.' }],
        isError: true,
        resultType: 'complete',
      });
      // A call that ends in time is answered as usual.
      const quick = await rpc(server.url, 'tools/call', {
        name: 'stubborn',
        arguments: { ms: 10 },
        _meta: envelope({}),
      });
      expect(quick.body.result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(quick.body.result.isError).toBeUndefined();
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('deadlines on stdio', () => {
  it('answers a timeout with a tool error, exits within 2 s of stdin closing though the handler sleeps', async () => {
    const server = startRawStdio(entry);
    try {
      const started = Date.now();
      const reply = await server.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'stubborn', arguments: { ms: 20_000 }, _meta: envelope({}) },
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(reply.result).toMatchObject({
        content: [{ type: 'text', text: 'The tool "stubborn" timed out after 3 s.' }],
        isError: true,
      });
      const closedAt = Date.now();
      expect(await server.close()).toBe(0);
      expect(Date.now() - closedAt).toBeLessThan(2_000);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('limits', () => {
  it('keeps the server under 300 MB with 250 concurrent 4 MB bodies, the excess 503 with Retry-After', async () => {
    const server = await startHttpServer(entry, {});
    try {
      const data = 'x'.repeat(4_000_000 - 200);
      const calls = Array.from({ length: 250 }, (_, i) => post(server.url, 'measure', { data }, i + 1).done);
      const replies = await Promise.all(calls);
      const ok = replies.filter((reply) => reply.status === 200);
      const busy = replies.filter((reply) => reply.status === 503);
      expect(ok.length + busy.length).toBe(250);
      expect(ok.length).toBeGreaterThan(0);
      expect(busy.length).toBeGreaterThan(0);
      for (const reply of ok) expect(reply.body.result.content).toEqual([{ type: 'text', text: String(data.length) }]);
      for (const reply of busy) {
        expect(reply.retryAfter).toBe('1');
        expect(reply.body.error.code).toBe(-32000);
      }
      const peakKb = Number(
        /^VmHWM:\s+(\d+) kB$/m.exec(
          await import('node:fs').then((fs) => fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8')),
        )?.[1],
      );
      expect(peakKb).toBeLessThan(300 * 1024);
    } finally {
      await server.stop();
    }
  }, 300_000);
});

describe('shutdown', () => {
  // 25 calls finish within the 2 s grace period; 25 wait for their signal, so they are cancelled when it ends.
  // The server logs a line on SIGTERM: the harness must keep the 'exit' listener this test waits on.
  it('on SIGTERM with 50 calls in flight answers each (done, or cancelled after the grace) and exits 0', async () => {
    const server: RunningServer = await startHttpServer(entry, {});
    const finishing = Array.from({ length: 25 }, (_, i) => post(server.url, 'stubborn', { ms: 1500 }, i + 1).done);
    const stuck = Array.from({ length: 25 }, (_, i) => post(server.url, 'wait', { tag: `stuck${i}` }, i + 100).done);
    for (const end = Date.now() + 60_000; count(server.stderr(), /^started /gm) < 50 && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(count(server.stderr(), /^started /gm)).toBe(50);
    const exited = exitOf(server.child);
    server.child.kill('SIGTERM');
    const done = await Promise.all(finishing);
    const cancelled = await Promise.all(stuck);
    for (const reply of done)
      expect([reply.status, reply.body.result.content]).toEqual([200, [{ type: 'text', text: 'done' }]]);
    for (const reply of cancelled) {
      expect(reply.status).toBe(503);
      expect(reply.body.error).toEqual({ code: -32000, message: 'Server shutting down: the call was cancelled' });
    }
    expect(count(server.stderr(), /^aborted stuck/gm)).toBe(25);
    expect(await exited, server.stderr()).toBe(0);
  }, 180_000);
});
