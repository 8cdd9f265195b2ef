import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from '../runtime/harness.js';
import {
  buildBare,
  buildProto,
  call,
  legacyInitialize,
  meta,
  modernHeaders,
  post,
  protoKeys,
  protoLegacyInitialized,
  startHttp,
  version,
  type HttpChild,
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

const listBody = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
const callBody = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'a' }, _meta: meta() },
};

/** The -32020 answer for a header that disagrees with the body (or is missing: header "(missing)"). */
function mismatch(header: string, body: string) {
  return {
    jsonrpc: '2.0',
    id: 1,
    error: {
      code: -32020,
      message: `Bad Request: the request headers and body disagree: ${body}`,
      data: { mismatch: { header, body } },
    },
  };
}

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
  for (const method of ['GET', 'DELETE']) {
    it(`answers ${method} with 405 and Allow: POST`, async () => {
      const response = await fetch(proto.url, { method, signal: AbortSignal.timeout(30_000) });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -31405, message: 'Method not allowed.' },
      });
    });
  }

  it('answers a POST that is not JSON with 415 and -31415, outside the reserved codes, on both eras', async () => {
    const unsupported = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -31415, message: 'Unsupported Media Type: Content-Type must be application/json' },
    };
    const text = { ...modernHeaders('tools/list'), 'content-type': 'text/plain' };
    const modern = await post(proto.url, listBody, text);
    const legacy = await post(proto.url, legacyInitialize, {
      'content-type': 'text/plain',
      accept: 'application/json',
    });
    expect([modern.status, modern.body, legacy.status, legacy.body]).toEqual([415, unsupported, 415, unsupported]);
  });

  it('answers a POSTed notification with 202 and no body', async () => {
    const answer = await post(
      proto.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, _meta: meta() } },
      modernHeaders('notifications/cancelled'),
    );
    expect([answer.status, answer.text, answer.headers.get('content-length')]).toEqual([202, '', null]);
  });

  it('answers a missing MCP-Protocol-Version header with 400 -32020', async () => {
    const { 'mcp-protocol-version': _, ...headers } = modernHeaders('tools/list');
    const answer = await post(proto.url, listBody, headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch(
        '(missing)',
        'the body envelope names protocol version 2026-07-28 but the required MCP-Protocol-Version header is absent',
      ),
    );
  });

  it('answers an MCP-Protocol-Version header that disagrees with the body with 400 -32020', async () => {
    const answer = await post(proto.url, listBody, {
      ...modernHeaders('tools/list'),
      'mcp-protocol-version': '2025-11-25',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch(
        '2025-11-25',
        'the body envelope names protocol version 2026-07-28 but the MCP-Protocol-Version header names 2025-11-25',
      ),
    );
  });

  it('answers a missing Mcp-Method header with 400 -32020', async () => {
    const { 'mcp-method': _, ...headers } = modernHeaders('tools/list');
    const answer = await post(proto.url, listBody, headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('(missing)', 'the body names method tools/list but the required Mcp-Method header is absent'),
    );
  });

  it('answers an Mcp-Method header that disagrees with the body with 400 -32020', async () => {
    const answer = await post(proto.url, listBody, modernHeaders('prompts/list'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('prompts/list', 'the body names method tools/list but the Mcp-Method header names prompts/list'),
    );
  });

  it('answers a missing Mcp-Name header with 400 -32020', async () => {
    const { 'mcp-name': _, ...headers } = modernHeaders('tools/call', callBody.params);
    const answer = await post(proto.url, callBody, headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('(missing)', 'the body carries params.name="echo" but the required Mcp-Name header is absent'),
    );
  });

  it('answers an Mcp-Name header that disagrees with the body with 400 -32020', async () => {
    const answer = await post(proto.url, callBody, {
      ...modernHeaders('tools/call', callBody.params),
      'mcp-name': 'explode',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('explode', 'the body carries params.name="echo" but the Mcp-Name header names "explode"'),
    );
  });

  it('answers a foreign Origin with 403, and serves a loopback one', async () => {
    const foreign = await post(proto.url, listBody, { ...modernHeaders('tools/list'), origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Forbidden: Origin not allowed' },
    });
    const local = await post(proto.url, listBody, {
      ...modernHeaders('tools/list'),
      origin: `http://localhost:${proto.url.port}`,
    });
    expect(local.status).toBe(200);
  });

  it('answers a rebinding Host header with 403, and serves a loopback one', async () => {
    const body = JSON.stringify(listBody);
    for (const host of ['evil.example', `evil.example:${proto.url.port}`, 'localhost.evil.example']) {
      const answer = await rawPost(host, body);
      expect([host, answer.status, JSON.parse(answer.text)]).toEqual([
        host,
        403,
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: `Invalid Host: ${host.split(':')[0]}` } },
      ]);
    }
    expect((await rawPost(`localhost:${proto.url.port}`, body)).status).toBe(200);
  });

  it('answers a Host header that is not an RFC 9110 authority with 400, and logs nothing', async () => {
    const body = JSON.stringify(listBody);
    const before = proto.stderr().length;
    const port = proto.url.port;
    // Userinfo (which once passed as 127.0.0.1 and then failed with a stack trace), bad ports, a path, an address
    // the URL parser would rewrite (0x7f.1 is 127.0.0.1 to it), an empty value.
    const hosts = [`127.0.0.1:${port}@evil.com`, 'localhost:1@evil.com', 'localhost:99999', 'localhost:x'];
    for (const host of [...hosts, `localhost:${port}/mcp`, `0x7f.1:${port}`, '']) {
      const answer = await rawPost(host, body);
      expect([host, answer.status, JSON.parse(answer.text)]).toEqual([
        host,
        400,
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: malformed Host header' } },
      ]);
    }
    // The default port and an empty one are valid authorities that name the host.
    expect((await rawPost('localhost:80', body)).status).toBe(200);
    expect((await rawPost('[::1]:', body)).status).toBe(200);
    expect(proto.stderr().slice(before)).toBe('');
  });

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

  it('answers an unknown resource -32002 on a 2025-11-25 session, -32602 on 2026-07-28', async () => {
    const init = await post(proto.url, legacyInitialize, legacyHeaders);
    const session = { ...legacyHeaders, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
    const read = (id: number) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 'proto://nope' } });
    const old = await post(proto.url, read(2), { ...session, 'mcp-protocol-version': '2025-11-25' });
    const uri = 'proto://nope';
    expect([old.status, old.body]).toEqual([
      200,
      { jsonrpc: '2.0', id: 2, error: { code: -32002, message: `Resource not found: ${uri}`, data: { uri } } },
    ]);
    const modern = await call(proto.url, 'resources/read', { uri, _meta: meta() }, 3);
    expect(modern.body).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: `Resource not found: ${uri}`, data: { uri } },
    });
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

  it('answers initialize with 400 -32022 with legacy: reject', async () => {
    const answer = await post(bare.url, legacyInitialize, legacyHeaders);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      code: -32022,
      message: expect.any(String),
      data: { supported: [version], requested: '2025-11-25' },
    });
    expect(answer.body.id).toBe(1);
  });
});
