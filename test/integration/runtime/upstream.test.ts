import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../templates/runtime/handler.gen.js';
import {
  bindTool,
  type HttpBindingSpec,
  maxUpstreamBytes,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';

// The binding runtime (templates/runtime/upstream.gen.ts) against a recording server on 127.0.0.1: each credential
// type, cookie and body-field arguments, the OAuth 2 token fetched once and cached, and the size cap on answers.

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}
const seen: Seen[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      if (request.url === '/token')
        return response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: 'tok-1', expires_in: 3600 }));
      if (request.url === '/huge') return response.writeHead(200).end('x'.repeat(maxUpstreamBytes + 1));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.TEST_UP_URL = base;
  process.env.TEST_UP_USER = 'ana';
  process.env.TEST_UP_PASS = 'p:w';
  process.env.TEST_UP_TOKEN_URL = `${base}/token`;
  process.env.TEST_UP_ID = 'client';
  process.env.TEST_UP_SECRET = 's3cret';
});

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
const call = (spec: UpstreamSpec, b: HttpBindingSpec, input: Record<string, unknown>) =>
  bindTool<Call>(spec, [], b)(input, { signal: AbortSignal.timeout(20_000) });

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
    process.env.TEST_UP_KEY = 'k&1';
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
});
