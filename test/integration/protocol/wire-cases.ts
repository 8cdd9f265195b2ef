import { expect, it } from 'vitest';
import { legacyInitialize, meta, modernHeaders, type Reply, version } from './support.js';

// The Streamable HTTP rules every front end of a generated server answers alike: the node:http server
// (http.test.ts, a real process on a real port) and the web fetch handler (http-fetch.test.ts, in-process).
// Each case runs against the proto fixture (test/fixtures/protocol/proto.yaml), the -32022 case against bare.

/** A generated server as these cases reach it. */
export interface WireTarget {
  /** The MCP endpoint's URL. */
  readonly url: URL;
  /** Sends one request to the proto server and returns its answer. */
  send(request: Request): Promise<Response>;
  /** POSTs `body` (a string verbatim) with exactly `headers` to the proto server, or to the bare one. */
  post(body: unknown, headers: Record<string, string>): Promise<Reply>;
  postBare(body: unknown, headers: Record<string, string>): Promise<Reply>;
  /** One JSON-RPC request with the modern headers. */
  call(method: string, params: Record<string, unknown>, id?: number): Promise<Reply>;
  /** POSTs a tools/list with the modern headers and exactly this Host header. */
  postHost(host: string, body: string): Promise<{ status: number; text: string }>;
  /** What the server has logged so far. */
  stderr(): string;
}

export const listBody = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } };
const callBody = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'a' }, _meta: meta() },
};
const legacyHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

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

/** Registers the cases, each reaching the server through `target()` (set up in the caller's beforeAll). */
export function wireCases(target: () => WireTarget): void {
  for (const method of ['GET', 'DELETE']) {
    it(`answers ${method} with 405 and Allow: POST`, async () => {
      const response = await target().send(new Request(target().url, { method }));
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
    const modern = await target().post(listBody, text);
    const legacy = await target().post(legacyInitialize, {
      'content-type': 'text/plain',
      accept: 'application/json',
    });
    expect([modern.status, modern.body, legacy.status, legacy.body]).toEqual([415, unsupported, 415, unsupported]);
  });

  it('answers a POSTed notification with 202 and no body', async () => {
    const answer = await target().post(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, _meta: meta() } },
      modernHeaders('notifications/cancelled'),
    );
    expect([answer.status, answer.text, answer.headers.get('content-length')]).toEqual([202, '', null]);
  });

  it('answers a missing MCP-Protocol-Version header with 400 -32020', async () => {
    const { 'mcp-protocol-version': _, ...headers } = modernHeaders('tools/list');
    const answer = await target().post(listBody, headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch(
        '(missing)',
        'the body envelope names protocol version 2026-07-28 but the required MCP-Protocol-Version header is absent',
      ),
    );
  });

  it('answers an MCP-Protocol-Version header that disagrees with the body with 400 -32020', async () => {
    const answer = await target().post(listBody, {
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
    const answer = await target().post(listBody, headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('(missing)', 'the body names method tools/list but the required Mcp-Method header is absent'),
    );
  });

  it('answers an Mcp-Method header that disagrees with the body with 400 -32020', async () => {
    const answer = await target().post(listBody, modernHeaders('prompts/list'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('prompts/list', 'the body names method tools/list but the Mcp-Method header names prompts/list'),
    );
  });

  it('answers a missing Mcp-Name header with 400 -32020', async () => {
    const { 'mcp-name': _, ...headers } = modernHeaders('tools/call', callBody.params);
    const answer = await target().post(callBody, headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('(missing)', 'the body carries params.name="echo" but the required Mcp-Name header is absent'),
    );
  });

  it('answers an Mcp-Name header that disagrees with the body with 400 -32020', async () => {
    const answer = await target().post(callBody, {
      ...modernHeaders('tools/call', callBody.params),
      'mcp-name': 'explode',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      mismatch('explode', 'the body carries params.name="echo" but the Mcp-Name header names "explode"'),
    );
  });

  it('answers a foreign Origin with 403, and serves a loopback one', async () => {
    const foreign = await target().post(listBody, { ...modernHeaders('tools/list'), origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Forbidden: Origin not allowed' },
    });
    const local = await target().post(listBody, {
      ...modernHeaders('tools/list'),
      origin: `http://localhost:${target().url.port}`,
    });
    expect(local.status).toBe(200);
  });

  it('answers a rebinding Host header with 403, and serves a loopback one', async () => {
    const body = JSON.stringify(listBody);
    for (const host of ['evil.example', `evil.example:${target().url.port}`, 'localhost.evil.example']) {
      const answer = await target().postHost(host, body);
      expect([host, answer.status, JSON.parse(answer.text)]).toEqual([
        host,
        403,
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: `Invalid Host: ${host.split(':')[0]}` } },
      ]);
    }
    expect((await target().postHost(`localhost:${target().url.port}`, body)).status).toBe(200);
  });

  it('answers a Host header that is not an RFC 9110 authority with 400, and logs nothing', async () => {
    const body = JSON.stringify(listBody);
    const before = target().stderr().length;
    const port = target().url.port;
    // Userinfo (which once passed as 127.0.0.1 and then failed with a stack trace), bad ports, a path, an address
    // the URL parser would rewrite (0x7f.1 is 127.0.0.1 to it), an empty value.
    const hosts = [`127.0.0.1:${port}@evil.com`, 'localhost:1@evil.com', 'localhost:99999', 'localhost:x'];
    for (const host of [...hosts, `localhost:${port}/mcp`, `0x7f.1:${port}`, '']) {
      const answer = await target().postHost(host, body);
      expect([host, answer.status, JSON.parse(answer.text)]).toEqual([
        host,
        400,
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: malformed Host header' } },
      ]);
    }
    // The default port and an empty one are valid authorities that name the host.
    expect((await target().postHost('localhost:80', body)).status).toBe(200);
    expect((await target().postHost('[::1]:', body)).status).toBe(200);
    expect(target().stderr().slice(before)).toBe('');
  });

  it('answers an unknown resource -32002 on a 2025-11-25 session, -32602 on 2026-07-28', async () => {
    const init = await target().post(legacyInitialize, legacyHeaders);
    const session = { ...legacyHeaders, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '' };
    const read = (id: number) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 'proto://nope' } });
    const old = await target().post(read(2), { ...session, 'mcp-protocol-version': '2025-11-25' });
    const uri = 'proto://nope';
    expect([old.status, old.body]).toEqual([
      200,
      { jsonrpc: '2.0', id: 2, error: { code: -32002, message: `Resource not found: ${uri}`, data: { uri } } },
    ]);
    const modern = await target().call('resources/read', { uri, _meta: meta() }, 3);
    expect(modern.body).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: `Resource not found: ${uri}`, data: { uri } },
    });
  });

  it("answers params that fail their method's schema -32602 naming the first issue (the SDK says -32603)", async () => {
    const invalid = (id: number, method: string, issue: string) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32602, message: `Invalid params for ${method}: ${issue}` },
    });
    const list = await target().call('tools/list', { cursor: 5, _meta: meta() }, 4);
    expect([list.status, list.body]).toEqual([
      200,
      invalid(4, 'tools/list', 'params.cursor: Invalid input: expected string, received number'),
    ]);
    const get = await target().call('prompts/get', { name: 'greet', arguments: { who: 1 }, _meta: meta() }, 5);
    expect([get.status, get.body]).toEqual([
      200,
      invalid(5, 'prompts/get', 'params.arguments.who: Invalid input: expected string, received number'),
    ]);
    // The same on a 2025-11-25 session, whose schemas are that revision's.
    const init = await target().post(legacyInitialize, legacyHeaders);
    const session = {
      ...legacyHeaders,
      'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-11-25',
    };
    const old = await target().post({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 5 } }, session);
    expect([old.status, old.body]).toEqual([
      200,
      invalid(6, 'resources/read', 'params.uri: Invalid input: expected string, received number'),
    ]);
  });

  it('answers a JSON-RPC response posted with the 2026-07-28 header 400 -32600, on both eras', async () => {
    const headers = { ...legacyHeaders, 'mcp-protocol-version': version };
    const refused = {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Bad Request: JSON-RPC responses cannot be posted to this endpoint' },
    };
    for (const answer of [
      await target().post({ jsonrpc: '2.0', id: 1, result: {} }, headers),
      await target().postBare({ jsonrpc: '2.0', id: 1, result: {} }, headers),
    ])
      expect([answer.status, answer.body]).toEqual([400, refused]);
  });

  it('answers initialize with 400 -32022 with legacy: reject', async () => {
    const answer = await target().postBare(legacyInitialize, legacyHeaders);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      code: -32022,
      message: expect.any(String),
      data: { supported: [version], requested: '2025-11-25' },
    });
    expect(answer.body.id).toBe(1);
  });
}
