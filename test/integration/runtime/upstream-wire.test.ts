import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SdkResult, ToolError } from '../../../templates/runtime/handler.gen.js';
import { compileSchemas, lazySchema } from '../../../templates/runtime/register.gen.js';
import type { RegistrySpec } from '../../../templates/runtime/spec.gen.js';
import {
  bindTool,
  type HttpBindingSpec,
  startUpstream,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';
import { recordingUpstream, type Seen } from './recorder.js';

// Bound tools on the wire, against a recording server on 127.0.0.1: each parameter where and how the OpenAPI
// serialization rules put it (deepObject, explode false, a path and a query parameter of the same name), nested
// form bodies in the bracket form, the PATCH media type the binding names, a GET with a body, an API key in the
// query beside styled parameters, and the message of an error answer in its usual shapes.

const seen: Seen[] = [];
let server: Server;
const config: Record<string, unknown> = {};

const errors: Record<string, unknown> = {
  '/errors': { errors: [{ message: 'No such customer: cus_1' }, 'and a second'] },
  '/error-object': { error: { type: 'invalid_request_error', message: 'Missing amount' } },
  '/problem': { type: 'about:blank', title: 'Not Found', status: 404 },
  '/detail': { detail: 'No widget 7' },
};

beforeAll(async () => {
  let base: string;
  ({ server, base } = await recordingUpstream(seen, (request, response) => {
    const route = request.url.replace(/^\/v1/, '');
    if (route in errors) return response.writeHead(404).end(JSON.stringify(errors[route]));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }));
  config.WIRE_URL = `${base}/v1`;
  config.WIRE_KEY = 'k 1';
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const none: UpstreamSpec = { baseUrl: 'WIRE_URL', credential: { type: 'none' } };
const binding = (over: Partial<HttpBindingSpec>): HttpBindingSpec => ({
  tool: 't',
  method: 'GET',
  path: '/things',
  args: [],
  body: 'application/json',
  result: 'body',
  errorMessage: null,
  structured: true,
  ...over,
});
/** The request the call sent (or null), and the error it failed with (or null). */
async function exchange(b: HttpBindingSpec, input: Record<string, unknown>, spec: UpstreamSpec = none) {
  const at = seen.length;
  startUpstream(config, null);
  let error: unknown = null;
  try {
    await bindTool<Call>(spec, b)(input, { signal: AbortSignal.timeout(20_000) });
  } catch (e) {
    error = e;
  }
  const s = seen[at];
  return {
    request: s === undefined ? null : { method: s.method, url: s.url, type: s.headers['content-type'], body: s.body },
    error,
  };
}

describe('bound tools send what the spec says', () => {
  it('deepObject and explode false in the query, a path and a query "kind" apart, an API key beside them', async () => {
    const b = binding({
      path: '/kinds/{kind}/charges',
      args: [
        { name: 'created', in: 'query', style: 'deepObject', explode: true },
        { name: 'kind', in: 'path' },
        { name: 'query_kind', in: 'query', wire: 'kind' },
        { name: 'ids', in: 'query', explode: false },
        { name: 'tags', in: 'query', style: 'pipeDelimited' },
        { name: 'x-trace', in: 'header' },
      ],
    });
    const apiKey: UpstreamSpec = {
      baseUrl: 'WIRE_URL',
      credential: { type: 'apiKey', in: 'query', name: 'key', value: 'WIRE_KEY' },
    };
    const input = {
      created: { gte: 1700000000, lt: 1800000000 },
      kind: 'card',
      query_kind: 'all',
      ids: ['a', 'b'],
      tags: ['x', 'y'],
      'x-trace': ['t1', 't2'],
    };
    expect(await exchange(b, input, apiKey)).toEqual({
      request: {
        method: 'GET',
        url:
          '/v1/kinds/card/charges?created[gte]=1700000000&created[lt]=1800000000&kind=all&ids=a,b&tags=x|y' +
          '&key=k%201',
        type: undefined,
        body: '',
      },
      error: null,
    });
  });

  it('a form body: nested members in the bracket form, metadata[order]=42, preferred_locales[0]=en', async () => {
    const b = binding({
      method: 'POST',
      path: '/customers',
      args: [{ name: 'body', in: 'body' }],
      body: 'application/x-www-form-urlencoded',
      encoding: { preferred_locales: { style: 'deepObject', explode: true } },
    });
    const body = { email: 'a@b.c', metadata: { order: '42' }, preferred_locales: ['en', 'fr'] };
    expect(await exchange(b, { body })).toEqual({
      request: {
        method: 'POST',
        url: '/v1/customers',
        type: 'application/x-www-form-urlencoded',
        body: 'email=a%40b.c&metadata[order]=42&preferred_locales[0]=en&preferred_locales[1]=fr',
      },
      error: null,
    });
  });

  it('a PATCH is sent with the media type its binding names', async () => {
    const b = binding({
      method: 'PATCH',
      path: '/things/{id}',
      args: [
        { name: 'id', in: 'path' },
        { name: 'body', in: 'body' },
      ],
      body: 'application/merge-patch+json',
    });
    expect(await exchange(b, { id: '7', body: { spec: { replicas: 3 } } })).toEqual({
      request: {
        method: 'PATCH',
        url: '/v1/things/7',
        type: 'application/merge-patch+json',
        body: '{"spec":{"replicas":3}}',
      },
      error: null,
    });
  });

  it('a JSON type with parameters is sent as JSON, under the type as written', async () => {
    const b = binding({
      method: 'POST',
      path: '/things',
      args: [{ name: 'body', in: 'body' }],
      body: 'application/json;version=2018-01-01',
    });
    expect(await exchange(b, { body: { name: 'Ana' } })).toEqual({
      request: {
        method: 'POST',
        url: '/v1/things',
        type: 'application/json;version=2018-01-01',
        body: '{"name":"Ana"}',
      },
      error: null,
    });
  });

  it('a GET with a body sends it, and its answer is read as any other', async () => {
    const b = binding({ path: '/search', args: [{ name: 'body', in: 'body' }] });
    expect(await exchange(b, { body: { query: { match: 'x' } } })).toEqual({
      request: { method: 'GET', url: '/v1/search', type: 'application/json', body: '{"query":{"match":"x"}}' },
      error: null,
    });
  });

  it.each([
    ['/errors', 'The upstream API refused the call (HTTP 404): "No such customer: cus_1; and a second"'],
    ['/error-object', 'The upstream API refused the call (HTTP 404): "Missing amount"'],
    ['/problem', 'The upstream API refused the call (HTTP 404): "Not Found"'],
    ['/detail', 'The upstream API refused the call (HTTP 404): "No widget 7"'],
  ])('the message of an error answer at %s reaches the caller', async (path, message) => {
    const { error } = await exchange(binding({ path }), {});
    expect(error).toEqual(new ToolError(message, 'not_found'));
  });
});

describe('a 2xx answer that does not match the output schema', () => {
  const output = lazySchema({ type: 'object', required: ['id'], properties: { id: { type: 'string' } } });
  const write = binding({ method: 'DELETE', path: '/things/7' });
  const mismatch =
    "The upstream API accepted the request (HTTP 200), but its answer does not match the tool's output schema";
  const call = (b: HttpBindingSpec) => {
    startUpstream(config, null);
    return bindTool<Call>(none, b, output)({}, { signal: AbortSignal.timeout(20_000) });
  };

  it('is returned as received, with the mismatch in _meta and the log (the default)', async () => {
    const logged: string[] = [];
    const write0 = process.stderr.write;
    process.stderr.write = ((chunk: string) => logged.push(chunk) > 0) as typeof process.stderr.write;
    let result: unknown;
    try {
      result = await call(write);
    } finally {
      process.stderr.write = write0;
    }
    expect(result).toBeInstanceOf(SdkResult);
    const sent = (result as SdkResult<never>).result as Record<string, unknown>;
    const meta = sent._meta as Record<string, string[]>;
    expect(sent.structuredContent).toEqual({ ok: true });
    expect(sent.content).toEqual([{ type: 'text', text: '{"ok":true}' }]);
    expect(meta['mcp-gen/warnings']?.[0]?.startsWith(`${mismatch} (`)).toBe(true);
    expect(logged.join('')).toContain(`tool "t": ${mismatch}`);
  });

  it('with outputCheck: strict, is a tool error that says the upstream accepted the request', async () => {
    const error = await call({ ...write, outputCheck: 'strict' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    const message = (error as ToolError).message;
    expect(message.startsWith(`${mismatch} (`)).toBe(true);
    expect(message.endsWith('). The request took effect; check before repeating it.')).toBe(true);
  });

  it("an answer that matches is the result, and the SDK's check of a bound tool's output passes", async () => {
    const matching = lazySchema({ type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } });
    startUpstream(config, null);
    expect(await bindTool<Call>(none, write, matching)({}, { signal: AbortSignal.timeout(20_000) })).toEqual({
      ok: true,
    });
    const schema = { type: 'object', required: ['id'] };
    const registry = { tools: [{ name: 'bound', inputSchema: {}, outputSchema: schema }] } as unknown as RegistrySpec;
    const lenient = compileSchemas(registry, {}, ['bound']).get('bound')?.output;
    const strict = compileSchemas(registry, {}).get('bound')?.output;
    expect(await lenient?.['~standard'].validate({ ok: true })).toEqual({ value: { ok: true } });
    expect((await strict?.['~standard'].validate({ ok: true }))?.issues?.length).toBe(1);
  });
});
