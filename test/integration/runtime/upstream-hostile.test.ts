import type { Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SdkResult, ToolError } from '../../../templates/runtime/handler.gen.js';
import { redact } from '../../../templates/runtime/log.gen.js';
import { lazySchema } from '../../../templates/runtime/register.gen.js';
import {
  bindTool,
  type HttpBindingSpec,
  startUpstream,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';
import { recordingUpstream, type Seen } from './recorder.js';

// A hostile or broken upstream, and arguments that try to pass for the credential, against servers on 127.0.0.1: a
// status no Response can hold does not end the process, the forms a secret is sent in (percent-encoded, a Basic
// payload, a fetched token) never come back in a message, OAuth 2 tokens are kept per scope set and dropped on a 401,
// an argument cannot replace the credential's query parameter or cookie, a non-object answer is never structured
// content, and a text is read in its charset.

const key = 'k+ey/SECRET=1234';
const seen: Seen[] = [];
let server: Server;
let base = '';
let raw: TcpServer;
let rawBase = '';
let tokenCount = 0;

beforeAll(async () => {
  ({ server, base } = await recordingUpstream(seen, (request, response) => {
    const url = new URL(request.url, 'http://upstream');
    if (url.pathname === '/token') {
      tokenCount += 1;
      const scope = new URLSearchParams(request.body).get('scope');
      return response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: `tok-${tokenCount}-${scope}-abcdef`, expires_in: 3600 }));
    }
    if (url.pathname === '/echo')
      return response
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `refused ${request.url} with ${request.headers.authorization ?? 'nothing'}` }));
    if (url.pathname === '/made') return response.writeHead(201, { location: `${base}${request.url}` }).end();
    if (url.pathname === '/list') return response.writeHead(200, { 'content-type': 'application/json' }).end('[1,2]');
    if (url.pathname === '/latin1')
      return response
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (url.pathname === '/bom')
      return response.writeHead(200, { 'content-type': 'application/json' }).end('\ufeff{"ok":true}');
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }));
  // Answers each request with the status line its path names, as no HTTP server library would write it.
  raw = createTcpServer((socket) => {
    socket.once('data', (chunk) => {
      const status = /^GET \/status\/(\d+)/.exec(chunk.toString())?.[1] ?? '500';
      socket.end(`HTTP/1.1 ${status} X\r\ncontent-length: 0\r\n\r\n`);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => raw.close(resolve));
});

type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const oauth = (scopes: string[]) =>
  ({ type: 'oauth2', tokenUrl: 'H_TOKEN_URL', clientId: 'H_ID', clientSecret: 'H_SECRET', scopes }) as const;
const spec: UpstreamSpec = {
  baseUrl: 'H_URL',
  credential: { type: 'none' },
  credentials: {
    query: { type: 'apiKey', in: 'query', name: 'api_key', value: 'H_KEY' },
    cookie: { type: 'apiKey', in: 'cookie', name: 'session', value: 'H_KEY' },
    basic: { type: 'basic', username: 'H_USER', password: 'H_PASSWORD' },
    read: oauth(['read']),
    admin: oauth(['admin']),
  },
};
const binding = (path: string, security: string, more: Partial<HttpBindingSpec> = {}): HttpBindingSpec => ({
  tool: 't',
  method: 'GET',
  path,
  args: [
    { name: 'filter', in: 'query', style: 'form', explode: true },
    { name: 'jar', in: 'cookie', explode: true },
  ],
  body: 'application/json',
  result: 'body',
  errorMessage: null,
  structured: false,
  security: [[security]],
  ...more,
});

/** What one call sent (its request lines), and what it answered or threw. */
async function call(b: HttpBindingSpec, input: Record<string, unknown> = {}, output: unknown = null) {
  // None of these variables says `secret`: the forms a credential is sent in are hidden all the same.
  startUpstream(
    {
      H_URL: b.path.startsWith('/status/') ? rawBase : base,
      H_KEY: key,
      H_USER: 'alice',
      H_PASSWORD: 'p@ss:word-123',
      H_TOKEN_URL: `${base}/token`,
      H_ID: 'client',
      H_SECRET: 'client-secret-1',
    },
    null,
  );
  const at = seen.length;
  const schema = output === null ? null : lazySchema(output as Record<string, unknown>);
  const outcome = await bindTool<Call>(
    spec,
    b,
    schema,
  )(input, { signal: AbortSignal.timeout(20_000) }).then(
    (value: unknown) => ({ value, error: null as unknown }),
    (error: unknown) => ({ value: undefined as unknown, error }),
  );
  return { sent: seen.slice(at), ...outcome };
}

describe('an upstream that answers what no Response can hold', () => {
  const withBody = (status: number) =>
    binding(`/status/${status}`, 'query', { args: [{ name: 'body', in: 'body' }], security: [] });

  it('a GET with a body answered HTTP 999 is a retryable tool error, and the process goes on', async () => {
    expect((await call(withBody(999), { body: { x: 1 } })).error).toEqual(
      new ToolError('The upstream API failed (HTTP 999); retry later.', 'failed', true),
    );
  });

  it('a GET with a body answered HTTP 101 (no upgrade asked for) could not be reached', async () => {
    expect((await call(withBody(101), { body: { x: 1 } })).error).toEqual(
      new ToolError('The upstream API could not be reached (GET /status/101); retry later.', 'failed', true),
    );
  });
});

describe('the forms a credential is sent in never come back in a message', () => {
  it('an API key percent-encoded in the query, echoed in a 401', async () => {
    const { sent, error } = await call(binding('/echo', 'query'));
    expect(sent.map((s) => s.url)).toEqual(['/echo?api_key=k%2Bey%2FSECRET%3D1234']);
    expect(error).toEqual(
      new ToolError(
        'The upstream API refused the call (HTTP 401): "refused /echo?api_key=*** with nothing"',
        'invalid',
      ),
    );
  });

  it('a Basic payload and the user:password it encodes', async () => {
    const { error } = await call(binding('/echo', 'basic'));
    expect((error as Error).message).toBe(
      'The upstream API refused the call (HTTP 401): "refused /echo with Basic ***"',
    );
    expect(redact('alice:p@ss:word-123 and p@ss:word-123')).toBe('*** and ***');
  });

  it('a fetched OAuth 2 token, and the 201 Location that echoes the query', async () => {
    const { error } = await call(binding('/echo', 'read'));
    expect((error as Error).message).toBe(
      'The upstream API refused the call (HTTP 401): "refused /echo with Bearer ***"',
    );
    expect((await call(binding('/made', 'query'))).value).toBe(
      JSON.stringify({ location: `${base}/made?api_key=***` }),
    );
  });
});

describe('OAuth 2 tokens', () => {
  it('are kept per scope set: another scope is another token, and a 401 drops the one refused', async () => {
    const before = tokenCount;
    const bearer = async (security: string, path = '/ok') =>
      (await call(binding(path, security))).sent.at(-1)?.headers.authorization;
    const admin = await bearer('admin');
    expect(admin).toBe(`Bearer tok-${before + 1}-admin-abcdef`);
    const read = await bearer('read');
    expect(read?.startsWith('Bearer tok-') && read.endsWith('-read-abcdef')).toBe(true);
    expect(await bearer('admin')).toBe(admin);
    // The API refuses the admin token: the next call fetches a new one.
    await bearer('admin', '/echo');
    expect(await bearer('admin')).toBe(`Bearer tok-${tokenCount}-admin-abcdef`);
    expect(tokenCount).toBeGreaterThan(before + 1);
  });
});

describe('an argument cannot pass for the credential', () => {
  it("a query member named as the credential's parameter is replaced by it", async () => {
    const { sent } = await call(binding('/ok', 'query'), { filter: { api_key: 'evil', q: 'x' } });
    expect(sent.map((s) => s.url)).toEqual(['/ok?q=x&api_key=k%2Bey%2FSECRET%3D1234']);
  });

  it("a cookie named as the credential's is replaced by it; a member's name is encoded", async () => {
    const { sent } = await call(binding('/ok', 'cookie'), { jar: { session: 'attacker', 'x=1; y': 'z' } });
    expect(sent.map((s) => s.headers.cookie)).toEqual(['x%3D1%3B%20y=z; session=k%2Bey%2FSECRET%3D1234']);
  });
});

describe('answers', () => {
  const output = { type: 'object', properties: { ok: { type: 'boolean' } } };

  it('a JSON array for an object output schema is an error result showing it, never structured content', async () => {
    const logged: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => logged.push(chunk) > 0) as typeof process.stderr.write;
    const { value } = await call(binding('/list', 'query', { structured: true }), {}, output).finally(() => {
      process.stderr.write = write;
    });
    expect(logged.join('')).toContain('tool "t": The upstream API accepted the request (HTTP 200)');
    expect(value).toBeInstanceOf(SdkResult);
    const result = (value as SdkResult<never>).result as Record<string, unknown>;
    const mismatch =
      "The upstream API accepted the request (HTTP 200), but its answer does not match the tool's output schema " +
      '(data must be object).';
    expect(result).toEqual({
      content: [
        { type: 'text', text: `${mismatch} The request took effect; check before repeating it.` },
        { type: 'text', text: '[1,2]' },
      ],
      isError: true,
      _meta: { 'mcp-gen/warnings': [mismatch] },
    });
  });

  it('a text is read in the charset its type names; JSON after a byte order mark parses', async () => {
    expect((await call(binding('/latin1', 'query', { accept: 'text/plain' }))).value).toBe('café');
    expect((await call(binding('/bom', 'query'))).value).toBe('{"ok":true}');
  });
});
