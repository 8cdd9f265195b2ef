import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawAnswer } from '../../support/raw-http.js';
import { runToExit } from '../runtime/harness.js';
import { listBody, wireCases } from './wire-cases.js';
import {
  buildBare,
  buildProto,
  call,
  legacyInitialize,
  modernHeaders,
  post,
  protoKeys,
  protoLegacyInitialized,
  startHttp,
  type HttpChild,
  version,
} from './support.js';

// Streamable HTTP rules on a generated server (proto fixture; bare for `legacy: reject`).

let protoEntry = '';
let proto: HttpChild;
let bare: HttpChild;

beforeAll(async () => {
  protoEntry = buildProto();
  // No --host: the server must choose 127.0.0.1 by itself.
  [proto, bare] = await Promise.all([startHttp(protoEntry, protoKeys), startHttp(buildBare(), {})]);
}, 120_000);

afterAll(async () => {
  await Promise.all([proto?.stop(), bare?.stop()]);
});

/**
 * Writes `text` on a fresh connection to the proto server and resolves with all it answers; with `cut`, the
 * connection is destroyed as soon as the text is written, as by a client that goes away.
 */
function rawExchange(text: string, cut = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(proto.url.port), '127.0.0.1', () =>
      socket.write(text, () => (cut ? socket.destroy() : undefined)),
    );
    let answer = '';
    socket.setTimeout(30_000, () => socket.destroy(new Error('timeout')));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** One POST with exactly these headers through node:http, which (unlike fetch) sends a Host header as given. */
function rawPost(host: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...modernHeaders('tools/list'), host, 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: proto.url.port,
        path: '/mcp',
        method: 'POST',
        headers,
        setHost: false,
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

describe('Streamable HTTP', () => {
  wireCases(() => ({
    url: proto.url,
    send: (request) => fetch(request, { signal: AbortSignal.timeout(30_000) }),
    post: (body, headers) => post(proto.url, body, headers),
    postBare: (body, headers) => post(bare.url, body, headers),
    call: (method, params, id) => call(proto.url, method, params, id),
    postHost: rawPost,
    stderr: () => proto.stderr(),
  }));

  it('checks the authority of an absolute-form target instead of Host, and answers other targets 400', async () => {
    const port = proto.url.port;
    const body = JSON.stringify(listBody);
    const head = (target: string, host: string): string =>
      `POST ${target} HTTP/1.1\r\nhost: ${host}\r\n` +
      Object.entries(modernHeaders('tools/list'))
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
    const evil = await rawExchange(head('http://evil.example/mcp', `localhost:${port}`));
    expect(evil.slice(0, evil.indexOf('\r\n'))).toBe('HTTP/1.1 403 Forbidden');
    const local = await rawExchange(head(`http://localhost:${port}/mcp`, 'evil.example'));
    expect(local.slice(0, local.indexOf('\r\n'))).toBe('HTTP/1.1 200 OK');
    const star = await rawExchange(`OPTIONS * HTTP/1.1\r\nhost: localhost:${port}\r\nconnection: close\r\n\r\n`);
    expect([star.slice(0, star.indexOf('\r\n')), star.slice(star.indexOf('\r\n\r\n') + 4)]).toEqual([
      'HTTP/1.1 400 Bad Request',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: malformed request target"}}',
    ]);
  });

  it('logs nothing when a client goes away in the middle of its body', async () => {
    const before = proto.stderr().length;
    const headers = Object.entries(modernHeaders('tools/list')).map(([name, value]) => `${name}: ${value}\r\n`);
    const cut = `POST /mcp HTTP/1.1\r\nhost: localhost\r\n${headers.join('')}content-length: 1000\r\n\r\n{"jsonrpc":`;
    await rawExchange(cut, true);
    // Requests after the cut one are served, and by their answers the server has seen the cut connection close.
    for (let i = 0; i < 3; i++) expect((await post(proto.url, listBody, modernHeaders('tools/list'))).status).toBe(200);
    expect(proto.stderr().slice(before)).toBe('');
  });

  it('binds 127.0.0.1 by default: the printed URL says so and no other interface answers', async () => {
    expect(proto.printed).toBe(`http://127.0.0.1:${proto.url.port}/mcp`);
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
      .map((address) => address?.address ?? '');
    for (const address of others) {
      const attempt = fetch(`http://${address}:${proto.url.port}/mcp`, {
        method: 'POST',
        body: '{}',
        signal: AbortSignal.timeout(3_000),
      });
      await expect(attempt).rejects.toThrow();
    }
  });

  it('refuses to start on 0.0.0.0 without authorization: exit code 1 and the reason on stderr', () => {
    const result = runToExit(protoEntry, ['--transport', 'http', '--host', '0.0.0.0', '--port', '0'], protoKeys);
    expect(result).toEqual({
      status: 1,
      stderr:
        'proto: refusing to listen on non-loopback host "0.0.0.0" without ' +
        'authorization; set auth in the manifest or bind to 127.0.0.1\n',
    });
  });

  it('answers a request with two Host lines 400, whichever comes first (Node would read only the first)', async () => {
    const body = JSON.stringify(listBody);
    for (const hosts of [
      [proto.url.host, 'evil.example'],
      ['evil.example', proto.url.host],
    ]) {
      const request = [
        `POST ${proto.url.pathname} HTTP/1.1`,
        ...hosts.map((host) => `Host: ${host}`),
        'Content-Type: application/json',
        `MCP-Protocol-Version: ${version}`,
        'Mcp-Method: tools/list',
        `Content-Length: ${Buffer.byteLength(body)}`,
      ];
      const answer = await rawAnswer(Number(proto.url.port), `${request.join('\r\n')}\r\n\r\n${body}`);
      const [head = '', text = 'null'] = answer.split('\r\n\r\n');
      expect([head.split('\r\n')[0], JSON.parse(text)]).toEqual([
        'HTTP/1.1 400 Bad Request',
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: more than one Host header' } },
      ]);
    }
  });

  it('answers a body declared past the instance byte cap 413, not 503 busy', async () => {
    // 17 MiB declared: over the 4 MiB body cap and the 16 MiB of bodies the instance holds at once. The bytes sent
    // end just past the body cap, where the server stops reading.
    const request = [
      `POST ${proto.url.pathname} HTTP/1.1`,
      `Host: ${proto.url.host}`,
      'Content-Type: application/json',
      `MCP-Protocol-Version: ${version}`,
      'Mcp-Method: tools/list',
      `Content-Length: ${17 * 1024 * 1024}`,
    ];
    const body = `{"pad":"${'x'.repeat(4 * 1024 * 1024)}`;
    const answer = await rawAnswer(Number(proto.url.port), `${request.join('\r\n')}\r\n\r\n${body}`);
    const [head = '', text = 'null'] = answer.split('\r\n\r\n');
    expect([
      head.split('\r\n')[0],
      /^connection: close$/im.test(head),
      /^retry-after:/im.test(head),
      JSON.parse(text),
    ]).toEqual([
      'HTTP/1.1 413 Payload Too Large',
      true,
      false,
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Payload Too Large' } },
    ]);
  });

  it('keeps a keep-alive connection usable after refusing an oversized body (413 closes it)', async () => {
    const big = await post(proto.url, `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`, modernHeaders('tools/list'));
    expect([big.status, big.headers.get('connection'), big.body]).toEqual([
      413,
      'close',
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Payload Too Large' } },
    ]);
    for (let i = 0; i < 3; i++) expect((await post(proto.url, listBody, modernHeaders('tools/list'))).status).toBe(200);
  });
});

describe('legacy (2025-11-25) clients over HTTP', () => {
  const legacyHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it('serves initialize with legacy: serve via the legacy adapter (with logging/setLevel and a session)', async () => {
    const answer = await post(proto.url, legacyInitialize, legacyHeaders);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(protoLegacyInitialized);
    expect(answer.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the official client in legacy mode with legacy: serve', async () => {
    const client = new Client({ name: 'old-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(proto.url));
    try {
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'old' } });
      expect(echo.structuredContent).toEqual({ text: 'old', count: 1 });
    } finally {
      await client.close();
    }
  });
});
