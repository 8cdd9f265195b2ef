import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../templates/runtime/handler.gen.js';
import type { Telemetry, TelemetryAttributes } from '../../../templates/runtime/startup.gen.js';
import {
  bindTool,
  type HttpBindingSpec,
  maxUpstreamBytes,
  startUpstream,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';
import { recordingUpstream, type Seen } from './recorder.js';

// The binding runtime (templates/runtime/upstream.gen.ts) against a recording server on 127.0.0.1: each credential
// type, cookie and body-field arguments, the OAuth 2 token fetched once and cached, the size cap on answers,
// retryable failures, the configuration start-up read (not the environment), multipart bodies and client spans.

const seen: Seen[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  ({ server, base } = await recordingUpstream(seen, (request, response) => {
    if (request.url === '/token')
      return response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: 'tok-1', expires_in: 3600 }));
    if (request.url === '/huge') return response.writeHead(200).end('x'.repeat(maxUpstreamBytes + 1));
    if (request.url === '/busy') return response.writeHead(503).end('{}');
    if (request.url === '/limited')
      return response.writeHead(429, { 'retry-after': '30' }).end('{"message":"API rate limit exceeded"}');
    if (request.url === '/gone') return response.writeHead(410).end('{"message":"gone"}');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  }));
  Object.assign(config, {
    TEST_UP_URL: base,
    TEST_UP_USER: 'ana',
    TEST_UP_PASS: 'p:w',
    TEST_UP_TOKEN_URL: `${base}/token`,
    TEST_UP_ID: 'client',
    TEST_UP_SECRET: 's3cret',
    TEST_UP_UPLOADS_URL: `${base}/uploads/`,
    TEST_UP_UPLOAD_TOKEN: 'b-1',
  });
});

/** The configuration values as start-up's readConfig would hand them to startUpstream. */
const config: Record<string, unknown> = {};

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const binding = (over: Partial<HttpBindingSpec> = {}): HttpBindingSpec => ({
  tool: 't',
  method: 'POST',
  path: '/things/{id}',
  args: [
    { name: 'id', in: 'path' },
    { name: 'name', in: 'field' },
    { name: 'session', in: 'cookie' },
  ],
  body: 'application/json',
  result: 'body',
  errorMessage: null,
  structured: true,
  ...over,
});
type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const call = (spec: UpstreamSpec, b: HttpBindingSpec, input: Record<string, unknown>, telemetry?: Telemetry) => {
  startUpstream(config, telemetry ?? null);
  return bindTool<Call>(spec, b)(input, { signal: AbortSignal.timeout(20_000) });
};
const none: UpstreamSpec = { baseUrl: 'TEST_UP_URL', credential: { type: 'none' } };
/** The error a call rejects with. */
const failure = (pending: Promise<unknown>): Promise<unknown> =>
  pending.then(
    () => null,
    (error: unknown) => error,
  );

describe('upstream bindings at run time', () => {
  it('basic: the Authorization header; a field goes into the JSON body; a cookie into Cookie', async () => {
    const at = seen.length;
    const result = await call(
      { baseUrl: 'TEST_UP_URL', credential: { type: 'basic', username: 'TEST_UP_USER', password: 'TEST_UP_PASS' } },
      binding(),
      { id: 'a/b', name: 'Rex', session: 's 1' },
    );
    expect(result).toEqual({ ok: true });
    const request = seen[at] as Seen;
    expect({
      url: request.url,
      body: request.body,
      cookie: request.headers.cookie,
      auth: request.headers.authorization,
    }).toEqual({
      url: '/things/a%2Fb',
      body: '{"name":"Rex"}',
      cookie: 'session=s%201',
      auth: `Basic ${Buffer.from('ana:p:w').toString('base64')}`,
    });
  });

  it('a literal query of the path (/export?format=json) reaches the upstream before the arguments', async () => {
    const at = seen.length;
    const exported = binding({
      method: 'GET',
      path: '/export/{id}?format=json',
      args: [
        { name: 'id', in: 'path' },
        { name: 'fields', in: 'query' },
      ],
    });
    await call(none, exported, { id: 'a b', fields: 'name' });
    await call(none, exported, { id: 'c' });
    expect(seen.slice(at).map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /export/a%20b?format=json&fields=name',
      'GET /export/c?format=json',
    ]);
  });

  it('http.baseUrl sends the request and its credential to that URL; unset, the call names its variable', async () => {
    const at = seen.length;
    const signed: UpstreamSpec = {
      baseUrl: 'TEST_UP_URL',
      credential: { type: 'bearer', token: 'TEST_UP_UPLOAD_TOKEN' },
    };
    const upload = binding({ baseUrl: 'TEST_UP_UPLOADS_URL', args: [{ name: 'id', in: 'path' }] });
    await call(signed, upload, { id: 'p 1' });
    await call(signed, binding({ args: [{ name: 'id', in: 'path' }] }), { id: 'p 1' });
    expect(seen.slice(at).map((s) => `${s.method} ${s.url} ${s.headers.authorization}`)).toEqual([
      'POST /uploads/things/p%201 Bearer b-1',
      'POST /things/p%201 Bearer b-1',
    ]);
    const error = await failure(call(signed, binding({ baseUrl: 'TEST_UP_ELSEWHERE_URL' }), { id: 'x' }));
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toBe(
      "The upstream base URL is not configured: set TEST_UP_ELSEWHERE_URL to the API's URL.",
    );
    expect(seen.length).toBe(at + 2);
  });

  it('a text body is the string as it is, a bytes body the base64 decoded; bad base64 sends nothing', async () => {
    const at = seen.length;
    const single = (body: string, bytes?: true) =>
      binding({
        method: 'PUT',
        path: '/blobs',
        args: [{ name: 'content', in: 'body' }],
        body,
        ...(bytes && { bytes }),
      });
    await call(none, single('text/plain'), { content: 'line one\nlíne two' });
    await call(none, single('image/png', true), { content: Buffer.from([0, 1, 254, 255]).toString('base64') });
    const bad = await failure(call(none, single('image/png', true), { content: 'not base64!' }));
    expect((bad as Error).message).toBe('The argument "content" is not base64 text; nothing was sent.');
    expect(
      seen.slice(at).map((s) => [s.headers['content-type'], s.headers['content-length'], s.bytes.toString('hex')]),
    ).toEqual([
      ['text/plain', '18', Buffer.from('line one\nlíne two').toString('hex')],
      ['image/png', '4', '0001feff'],
    ]);
  });

  it('oauth2 client credentials: the token is fetched once and cached for the next call', async () => {
    const at = seen.length;
    const spec: UpstreamSpec = {
      baseUrl: 'TEST_UP_URL',
      credential: {
        type: 'oauth2',
        tokenUrl: 'TEST_UP_TOKEN_URL',
        clientId: 'TEST_UP_ID',
        clientSecret: 'TEST_UP_SECRET',
        scopes: ['read'],
      },
    };
    await call(spec, binding(), { id: '1' });
    await call(spec, binding(), { id: '2' });
    const urls = seen.slice(at).map((s) => s.url);
    expect(urls).toEqual(['/token', '/things/1', '/things/2']);
    expect(seen[at]?.body).toBe('grant_type=client_credentials&scope=read');
    expect(seen[at]?.headers.authorization).toBe(`Basic ${Buffer.from('client:s3cret').toString('base64')}`);
    expect(seen[at + 2]?.headers.authorization).toBe('Bearer tok-1');
  });

  it('an apiKey in the query, and a missing key fails closed with no request', async () => {
    const at = seen.length;
    const spec: UpstreamSpec = {
      baseUrl: 'TEST_UP_URL',
      credential: { type: 'apiKey', in: 'query', name: 'key', value: 'TEST_UP_KEY' },
    };
    await expect(call(spec, binding(), { id: '1' })).rejects.toThrow(
      new ToolError('The upstream credential is not configured: set TEST_UP_KEY in the environment.'),
    );
    expect(seen.length).toBe(at);
    config.TEST_UP_KEY = 'k&1';
    await call(spec, binding({ method: 'GET', args: [{ name: 'id', in: 'path' }] }), { id: '1' });
    expect(seen[at]?.url).toBe('/things/1?key=k%261');
  });

  it('an answer over the size cap is a tool error, not a partial result', async () => {
    await expect(
      call(
        { baseUrl: 'TEST_UP_URL', credential: { type: 'none' } },
        binding({ method: 'GET', path: '/huge', args: [] }),
        {},
      ),
    ).rejects.toThrow(new ToolError(`The upstream answer is larger than ${maxUpstreamBytes} bytes.`));
  });

  it('5xx, a refusal for the rate of calls and an unreachable API are retryable tool errors; 4xx is not', async () => {
    const busy = await failure(call(none, binding({ method: 'GET', path: '/busy', args: [] }), {}));
    expect(busy).toEqual(new ToolError('The upstream API failed (HTTP 503); retry later.', 'failed', true));
    const limited = await failure(call(none, binding({ method: 'GET', path: '/limited', args: [] }), {}));
    expect(limited).toEqual(
      new ToolError(
        'The upstream API limits the rate of calls and refused this one (HTTP 429); retry in 30 s.',
        'failed',
        true,
      ),
    );
    const gone = await failure(call(none, binding({ method: 'GET', path: '/gone', args: [] }), {}));
    expect(gone).toEqual(new ToolError('The upstream API refused the call (HTTP 410): "gone"', 'invalid', false));
    // A port that was just listening and is now closed: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    config.TEST_UP_DOWN = `http://127.0.0.1:${port}`;
    const down = await failure(call({ baseUrl: 'TEST_UP_DOWN', credential: { type: 'none' } }, binding(), { id: '1' }));
    expect(down).toEqual(
      new ToolError('The upstream API could not be reached (POST /things/{id}); retry later.', 'failed', true),
    );
  });

  it('the base URL and credential come from the configuration start-up read, not from the environment', async () => {
    const at = seen.length;
    process.env.TEST_UP_URL = 'http://127.0.0.1:1';
    process.env.TEST_UP_BEARER = 'from-the-environment';
    const bearer: UpstreamSpec = { baseUrl: 'TEST_UP_URL', credential: { type: 'bearer', token: 'TEST_UP_BEARER' } };
    try {
      await expect(call(bearer, binding(), { id: '1' })).rejects.toThrow(
        new ToolError('The upstream credential is not configured: set TEST_UP_BEARER in the environment.'),
      );
      expect(seen.length).toBe(at);
      // A typed value (readConfig reads `integer` as a number) is sent as its text.
      config.TEST_UP_BEARER = 42;
      await call(bearer, binding(), { id: '1' });
      expect(seen.slice(at).map((s) => [s.url, s.headers.authorization])).toEqual([['/things/1', 'Bearer 42']]);
    } finally {
      delete process.env.TEST_UP_URL;
      delete process.env.TEST_UP_BEARER;
    }
  });

  it('multipart/form-data: each body member a part of a real multipart body (an array, one per item)', async () => {
    const at = seen.length;
    await call(none, binding({ body: 'multipart/form-data', args: [{ name: 'body', in: 'body' }] }), {
      body: { note: 'a b&c', tags: ['x', 'y'], count: 2 },
    });
    const request = seen[at] as Seen;
    const type = request.headers['content-type'] ?? '';
    expect(type).toMatch(/^multipart\/form-data; boundary=\S+$/);
    const parts = await new Response(request.body, { headers: { 'content-type': type } }).formData();
    expect([...parts.entries()]).toEqual([
      ['note', 'a b&c'],
      ['tags', 'x'],
      ['tags', 'y'],
      ['count', '2'],
    ]);
  });

  it('with telemetry, the request is a client span "upstream <METHOD> <path template>"', async () => {
    const spans: { name: string; attributes: TelemetryAttributes; kind: string | undefined; seen: number }[] = [];
    const telemetry: Telemetry = {
      instrument: (s) => s,
      withSpan: async (name, attributes, fn, kind) => {
        const before = seen.length;
        const result = await fn();
        spans.push({ name, attributes, kind, seen: seen.length - before });
        return result;
      },
      event: () => undefined,
      logIds: () => '',
    };
    await call(none, binding({ method: 'GET', args: [{ name: 'id', in: 'path' }] }), { id: '5' }, telemetry);
    expect(spans).toEqual([
      {
        name: 'upstream GET /things/{id}',
        attributes: { 'http.request.method': 'GET', 'url.template': '/things/{id}' },
        kind: 'client',
        seen: 1,
      },
    ]);
  });
});
