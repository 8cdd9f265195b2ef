import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import {
  buildBare,
  buildProto,
  call,
  meta,
  modernHeaders,
  post,
  protoInfo,
  protoKeys,
  startHttp,
  version,
  type HttpChild,
} from './support.js';

// server/discover and the per-request envelope, on generated servers over HTTP and stdio.

let proto: HttpChild;
let bare: HttpChild;
let stdio: RawStdio;

beforeAll(async () => {
  const protoEntry = buildProto();
  const bareEntry = buildBare();
  [proto, bare] = await Promise.all([startHttp(protoEntry, protoKeys), startHttp(bareEntry, {})]);
  stdio = startRawStdio(protoEntry, protoKeys);
}, 120_000);

afterAll(async () => {
  await Promise.all([proto?.stop(), bare?.stop(), stdio?.close()]);
});

// proto has legacy: serve, so it lists the revision it answers through initialize too (bare, legacy: reject, does not).
const discoverResult = {
  supportedVersions: ['2026-07-28', '2025-11-25'],
  capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
  instructions: 'Call echo to test; remove_note asks the user first.',
  resultType: 'complete',
  ttlMs: 45000,
  cacheScope: 'private',
  _meta: protoInfo,
};

describe('server/discover', () => {
  it('returns exactly the versions, capabilities, instructions, ttlMs/cacheScope, serverInfo (HTTP)', async () => {
    const answer = await call(proto.url, 'server/discover', { _meta: meta() }, 3);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: 3, result: discoverResult });
  });

  it('returns the same discovery result over stdio', async () => {
    expect(
      await stdio.request({ jsonrpc: '2.0', id: 'd1', method: 'server/discover', params: { _meta: meta() } }),
    ).toEqual({ jsonrpc: '2.0', id: 'd1', result: discoverResult });
  });

  it('advertises only the tools capability for a tools-only manifest (no resources/prompts/instructions)', async () => {
    const answer = await call(bare.url, 'server/discover', { _meta: meta() });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body.result.capabilities)).toEqual(['tools']);
    expect(answer.body.result).toEqual({
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: answer.body.result.capabilities.tools },
      resultType: 'complete',
      ttlMs: 120000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bare', version: '0.0.1' } },
    });
    // And the primitives it does not advertise are not there: resources/list is "method not found".
    const resources = await call(bare.url, 'resources/list', { _meta: meta() });
    expect([resources.status, resources.body.error.code]).toEqual([404, -32601]);
  });

  it('puts io.modelcontextprotocol/serverInfo in the _meta of every result', async () => {
    const requests: [string, Record<string, unknown>][] = [
      ['server/discover', {}],
      ['tools/list', {}],
      ['tools/call', { name: 'echo', arguments: { text: 'x' } }],
      ['tools/call', { name: 'explode', arguments: {} }],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'proto://readme' }],
      ['prompts/list', {}],
      ['prompts/get', { name: 'brief' }],
    ];
    const metas = [];
    for (const [method, params] of requests)
      metas.push((await call(proto.url, method, { ...params, _meta: meta() })).body.result._meta);
    expect(metas).toEqual(requests.map(() => protoInfo));
  });
});

/** A request whose envelope is broken in one way, and the exact error the server must give. */
const malformed: { rule: string; _meta?: unknown; http: Record<string, unknown>; stdio: Record<string, unknown> }[] = [
  {
    rule: 'missing _meta',
    http: {
      code: -32602,
      message:
        'Invalid params: the MCP-Protocol-Version header names protocol revision 2026-07-28, ' +
        'but the request is missing the required per-request envelope key(s): _meta',
      data: { envelope: { missing: ['_meta'] } },
    },
    stdio: {
      code: -32602,
      message:
        'Request is missing the required _meta envelope for protocol revision 2026-07-28 ' +
        '(io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)',
    },
  },
  {
    rule: 'missing protocolVersion',
    _meta: { 'io.modelcontextprotocol/clientCapabilities': {} },
    http: {
      code: -32602,
      message:
        'Invalid params: the MCP-Protocol-Version header names protocol revision 2026-07-28, but the request ' +
        'is missing the required per-request envelope key(s): io.modelcontextprotocol/protocolVersion',
      data: { envelope: { missing: ['io.modelcontextprotocol/protocolVersion'] } },
    },
    stdio: {
      code: -32602,
      message:
        'Request is missing the required _meta envelope for protocol revision 2026-07-28 ' +
        '(io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)',
    },
  },
  {
    rule: 'non-string protocolVersion',
    _meta: meta({}, 20260728),
    http: {
      code: -32602,
      message:
        'Invalid _meta envelope for protocol revision 2026-07-28: ' +
        'io.modelcontextprotocol/protocolVersion: Invalid input: expected string, received number',
      data: {
        envelope: {
          key: 'io.modelcontextprotocol/protocolVersion',
          problem: 'Invalid input: expected string, received number',
        },
      },
    },
    stdio: {
      code: -32602,
      message:
        'Invalid _meta envelope for protocol revision 2026-07-28: ' +
        'io.modelcontextprotocol/protocolVersion must be a string',
    },
  },
  {
    rule: 'missing clientCapabilities',
    _meta: { 'io.modelcontextprotocol/protocolVersion': version },
    http: {
      code: -32602,
      message:
        'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/clientCapabilities: missing',
      data: { envelope: { key: 'io.modelcontextprotocol/clientCapabilities', problem: 'missing' } },
    },
    stdio: {
      code: -32602,
      message:
        'Invalid _meta envelope for protocol revision 2026-07-28: ' +
        'io.modelcontextprotocol/clientCapabilities must be an object',
    },
  },
  {
    rule: 'non-object clientCapabilities',
    _meta: { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientCapabilities': 'all' },
    http: {
      code: -32602,
      message:
        'Invalid _meta envelope for protocol revision 2026-07-28: ' +
        'io.modelcontextprotocol/clientCapabilities: Invalid input: expected object, received string',
      data: {
        envelope: {
          key: 'io.modelcontextprotocol/clientCapabilities',
          problem: 'Invalid input: expected object, received string',
        },
      },
    },
    stdio: {
      code: -32602,
      message:
        'Invalid _meta envelope for protocol revision 2026-07-28: ' +
        'io.modelcontextprotocol/clientCapabilities must be an object',
    },
  },
];

describe('the request envelope', () => {
  for (const [index, { rule, _meta, http }] of malformed.entries()) {
    it(`answers ${rule} with -32602 and HTTP 400`, async () => {
      const params = _meta === undefined ? {} : { _meta };
      const answer = await post(
        proto.url,
        { jsonrpc: '2.0', id: 100 + index, method: 'server/discover', params },
        modernHeaders('server/discover'),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ jsonrpc: '2.0', id: 100 + index, error: http });
    });
  }

  for (const [index, { rule, _meta, stdio: error }] of malformed.entries()) {
    it(`answers ${rule} with -32602 on stdio`, async () => {
      const params = _meta === undefined ? {} : { _meta };
      expect(await stdio.request({ jsonrpc: '2.0', id: 200 + index, method: 'tools/list', params })).toEqual({
        jsonrpc: '2.0',
        id: 200 + index,
        error,
      });
    });
  }

  it('answers a well-formed unsupported version with -32022, data.supported and data.requested, HTTP 400', async () => {
    const headers = { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' };
    const answer = await post(
      proto.url,
      { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: meta({}, '2099-01-01') } },
      headers,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 2099-01-01',
        data: { supported: ['2026-07-28', '2025-11-25'], requested: '2099-01-01' },
      },
    });
    // legacy: reject names only the modern revision.
    const bareAnswer = await post(
      bare.url,
      { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: meta({}, '2099-01-01') } },
      headers,
    );
    expect([bareAnswer.status, bareAnswer.body.error.data]).toEqual([
      400,
      { supported: ['2026-07-28'], requested: '2099-01-01' },
    ]);
  });

  it('answers -32022 to every stdio request naming an unsupported version: good, bad, good, bad, good', async () => {
    const request = (id: number, v: string) =>
      stdio.request({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta({}, v) } });
    const unsupported = (id: number, requested: string) => ({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32022,
        message: `Unsupported protocol version: ${requested}`,
        data: { supported: ['2026-07-28', '2025-11-25'], requested },
      },
    });
    expect((await request(301, version)).result).toMatchObject({ resultType: 'complete' });
    expect(await request(302, '2099-01-01')).toEqual(unsupported(302, '2099-01-01'));
    expect((await request(303, version)).result).toMatchObject({ resultType: 'complete' });
    expect(await request(304, '2025-11-25')).toEqual(unsupported(304, '2025-11-25'));
    expect((await request(305, version)).result).toMatchObject({ resultType: 'complete' });
  });

  it('never answers a notification: HTTP 202 with an empty body', async () => {
    const notification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: meta() } };
    const answer = await post(proto.url, notification, modernHeaders('notifications/cancelled'));
    expect([answer.status, answer.text]).toEqual([202, '']);
  });

  it('never answers a notification on stdio: no line is written for it', async () => {
    const before = stdio.lines.length;
    stdio.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999 } }));
    stdio.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/made_up', params: {} }));
    const answer = await stdio.request({
      jsonrpc: '2.0',
      id: 401,
      method: 'server/discover',
      params: { _meta: meta() },
    });
    expect(answer.id).toBe(401);
    expect(stdio.lines.slice(before).map((line) => JSON.parse(line).id)).toEqual([401]);
  });

  it('answers an unknown method with -32601 and HTTP 404', async () => {
    const answer = await call(proto.url, 'notes/frobnicate', { _meta: meta() }, 9);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found' } });
  });

  it('answers an unknown method with -32601 on stdio', async () => {
    expect(
      await stdio.request({ jsonrpc: '2.0', id: 501, method: 'notes/frobnicate', params: { _meta: meta() } }),
    ).toEqual({
      jsonrpc: '2.0',
      id: 501,
      error: { code: -32601, message: 'Method not found' },
    });
  });
});
