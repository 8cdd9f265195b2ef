import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio } from '../../support/servers.js';
import {
  buildBare,
  buildProto,
  legacyInitialize,
  meta,
  protoKeys,
  protoLegacyInitialized,
  version,
} from './support.js';

// stdio rules on generated servers: what stdout carries, shutdown on EOF, legacy handling, and the
// official client.

let protoEntry = '';
let bareEntry = '';

beforeAll(() => {
  protoEntry = buildProto();
  bareEntry = buildBare();
}, 120_000);

describe('stdio', () => {
  it('writes only JSON-RPC lines to stdout; diagnostics such as the ephemeral-key warning go to stderr', async () => {
    // No keys in the environment: the server warns (on stderr) and runs with ephemeral keys.
    const raw = startRawStdio(protoEntry);
    try {
      const requests = [
        { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'explode', arguments: {}, _meta: meta() } },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'open_draft', arguments: { name: 'a' }, _meta: meta() },
        },
        {
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: { name: 'remove_note', arguments: { id: 'n1' }, _meta: meta({ elicitation: {} }) },
        },
        { jsonrpc: '2.0', id: 5, method: 'nope', params: { _meta: meta() } },
      ];
      for (const message of requests) await raw.request(message);
      expect(raw.lines.map((line) => JSON.parse(line).id)).toEqual([1, 2, 3, 4, 5]);
      for (const line of raw.lines)
        expect(Object.keys(JSON.parse(line)).sort()).toEqual(expect.arrayContaining(['id', 'jsonrpc']));
      const warning = (name: string) =>
        `warning: ${name} is not set; using an ephemeral key, so handles ` +
        'and approvals do not survive a restart or work across instances';
      expect(raw.stderr().split('\n').slice(0, 2)).toEqual([warning('PROTO_HANDLE_KEY'), warning('PROTO_STATE_KEY')]);
      expect(raw.stderr()).toContain('tool "explode" failed: Error: kaboom');
      expect(raw.lines.join('\n')).not.toMatch(/warning|kaboom/);
    } finally {
      await raw.close();
    }
  });

  it('exits with code 0 within 5 s of stdin closing', async () => {
    const raw = startRawStdio(protoEntry, protoKeys);
    await raw.request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    const started = Date.now();
    const exitCode = await raw.close();
    expect([exitCode, raw.child.signalCode]).toEqual([0, null]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('exits with code 0 on stdin EOF even with a request still in flight', async () => {
    const raw = startRawStdio(protoEntry, protoKeys);
    await raw.request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    raw.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'x' }, _meta: meta() },
      }),
    );
    const started = Date.now();
    expect(await raw.close()).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('a host that stops reading', () => {
  it('exits with code 0 on stdin EOF, logging failed writes to stderr instead of crashing', async () => {
    const raw = startRawStdio(protoEntry, protoKeys);
    raw.child.stdout.destroy(); // every answer from now on fails with EPIPE
    // One answer from each writer: the SDK (a valid request), the envelope guard (no _meta, a wrong
    // version) and the line filter (bad JSON).
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }));
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
    raw.send(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta({}, '2099-01-01') } }),
    );
    raw.send('{bad json');
    const deadline = Date.now() + 30_000;
    while ((raw.stderr().match(/EPIPE/g) ?? []).length < 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect([await raw.close(), raw.child.signalCode]).toEqual([0, null]);
    expect(raw.stderr()).not.toMatch(/Uncaught|triggerUncaughtException|\n {4}at /);
    expect(
      raw
        .stderr()
        .split('\n')
        .filter((line) => line !== ''),
    ).toEqual(expect.arrayContaining(['stdio: write EPIPE']));
  });
});

describe('legacy (2025-11-25) clients over stdio', () => {
  it('serves initialize with legacy: serve', async () => {
    const raw = startRawStdio(protoEntry, protoKeys);
    try {
      expect(await raw.request(legacyInitialize)).toEqual(protoLegacyInitialized);
      raw.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const list = await raw.request({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      expect((list.result as { tools: unknown[] }).tools).toHaveLength(8);
    } finally {
      expect(await raw.close()).toBe(0);
    }
  });

  it('serves the official client in legacy mode with legacy: serve', async () => {
    const client = new Client({ name: 'old-client', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [protoEntry],
        env: { PATH: process.env.PATH ?? '', ...protoKeys },
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.callTool({ name: 'echo', arguments: { text: 'old' } })).structuredContent).toEqual({
        text: 'old',
        count: 1,
      });
    } finally {
      await client.close();
    }
  });

  it('answers initialize with -32022 naming the supported versions with legacy: reject', async () => {
    const raw = startRawStdio(bareEntry);
    try {
      expect(await raw.request(legacyInitialize)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32022,
          message: 'Unsupported protocol version: 2025-11-25',
          data: { supported: [version], requested: '2025-11-25' },
        },
      });
      // The connection is not poisoned: a modern request right after is served.
      expect(
        (await raw.request({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta() } })).result,
      ).toMatchObject({ supportedVersions: [version] });
    } finally {
      expect(await raw.close()).toBe(0);
    }
  });
});

describe('the official client over stdio (pinned to 2026-07-28)', () => {
  it('discovers, lists, calls, reads and gets prompts', async () => {
    const client = new Client(
      { name: 'protocol-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: version } } },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [protoEntry],
        env: { PATH: process.env.PATH ?? '', ...protoKeys },
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getServerVersion()).toEqual({ name: 'proto', title: 'Protocol fixture', version: '2.1.0' });
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['brief', 'greet']);
      expect((await client.callTool({ name: 'echo', arguments: { text: 'z', count: 2 } })).structuredContent).toEqual({
        text: 'zz',
        count: 2,
      });
      expect((await client.readResource({ uri: 'proto://changelog' })).contents).toEqual([
        { uri: 'proto://changelog', mimeType: 'text/plain', text: 'Nothing yet.' },
      ]);
      expect((await client.getPrompt({ name: 'greet', arguments: { name: 'Cy', mood: 'ok' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Say hello to Cy, who feels ok.' } },
      ]);
    } finally {
      await client.close();
    }
  });
});
