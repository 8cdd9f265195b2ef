import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit } from '../runtime/harness.js';
import {
  buildBare,
  buildProto,
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
        error: { code: -32000, message: 'Method not allowed.' },
      });
    });
  }

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
    const { capabilities } = protoLegacyInitialized.result;
    expect(answer.body).toEqual({
      ...protoLegacyInitialized,
      result: { ...protoLegacyInitialized.result, capabilities: { ...capabilities, logging: {} } },
    });
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
