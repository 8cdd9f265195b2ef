import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SdkResult } from '../../../templates/runtime/handler.gen.js';
import {
  bindTool,
  type HttpBindingSpec,
  startUpstream,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';
import { recordingUpstream, type Seen } from './recorder.js';

// Answers that are not JSON (templates/runtime/upstream-answer.gen.ts), from a recording server on 127.0.0.1: the
// Accept header a binding sends, and each answer read by its own Content-Type: text as the tool's text, images and
// audio as their blocks, other bytes as an embedded resource, `{ result }` for `result: wrap`, and error text.

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 254, 255]);
const pdf = Buffer.from('%PDF-1.7\n\u00ff\u0000', 'latin1');
const answers: Record<string, [number, string | null, string | Buffer]> = {
  '/report.csv': [200, 'text/csv; charset=utf-8', 'id,name\n1,Ana\n2,Lúcia\n'],
  '/chart': [200, 'image/png', png],
  '/files/r1.pdf?key=k-secret': [200, 'application/pdf', pdf],
  '/voice': [200, 'audio/mpeg', Buffer.from([1, 2, 3])],
  '/untyped-text': [200, null, 'plain words'],
  '/untyped-json': [200, null, '{"id":"7"}'],
  '/broken-json': [200, 'application/json', 'id=7'],
  '/plain-error': [422, 'text/plain', 'Quota exceeded for this month.\n'],
  '/html-error': [400, 'text/html', '<html><body><h1>Bad Request</h1></body></html>'],
  '/created': [201, null, ''],
};

const seen: Seen[] = [];
let server: Server;
const config: Record<string, unknown> = {};

beforeAll(async () => {
  ({ server } = await recordingUpstream(seen, (request, response) => {
    const [status, type, body] = answers[request.url] ?? [404, 'application/json', '{}'];
    const location = request.url === '/created' ? { location: '/things/t-9' } : {};
    response.writeHead(status, type === null ? location : { 'content-type': type }).end(body);
  }));
  const { port } = server.address() as { port: number };
  config.TEST_ANSWERS_URL = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const spec: UpstreamSpec = { baseUrl: 'TEST_ANSWERS_URL', credential: { type: 'none' } };
const binding = (path: string, over: Partial<HttpBindingSpec> = {}): HttpBindingSpec => ({
  tool: 'export',
  method: 'GET',
  path,
  args: [],
  body: 'application/json',
  result: 'body',
  errorMessage: null,
  structured: false,
  ...over,
});
type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const call = (b: HttpBindingSpec) => {
  startUpstream(config, null);
  return bindTool<Call>(spec, b)({}, { signal: AbortSignal.timeout(20_000) });
};
const failure = (pending: Promise<unknown>): Promise<string> =>
  pending.then(
    () => 'resolved',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
const sent = (result: unknown) => (result instanceof SdkResult ? result.result : result);

describe('upstream answers that are not JSON', () => {
  it('asks for what http.accept names, and for JSON without it', async () => {
    const at = seen.length;
    await call(binding('/report.csv', { accept: 'text/csv' }));
    await call(binding('/untyped-json'));
    await call(binding('/chart', { accept: 'image/png, image/*' }));
    expect(seen.slice(at).map((s) => [s.url, s.headers.accept])).toEqual([
      ['/report.csv', 'text/csv'],
      ['/untyped-json', 'application/json'],
      ['/chart', 'image/png, image/*'],
    ]);
  });

  it('text is the tool text as received; with result: wrap also { result }', async () => {
    expect(await call(binding('/report.csv', { accept: 'text/csv' }))).toBe('id,name\n1,Ana\n2,Lúcia\n');
    const wrapped = await call(binding('/report.csv', { accept: 'text/csv', structured: true, result: 'wrap' }));
    expect(sent(wrapped)).toEqual({
      content: [{ type: 'text', text: 'id,name\n1,Ana\n2,Lúcia\n' }],
      structuredContent: { result: 'id,name\n1,Ana\n2,Lúcia\n' },
    });
  });

  it('an image and audio are their blocks; other bytes a resource whose URI has no query', async () => {
    expect(await call(binding('/chart', { accept: 'image/*' }))).toEqual([
      { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
    ]);
    expect(await call(binding('/voice', { accept: 'audio/*' }))).toEqual([
      { type: 'audio', data: 'AQID', mimeType: 'audio/mpeg' },
    ]);
    const base = String(config.TEST_ANSWERS_URL);
    const document = await call(binding('/files/r1.pdf?key=k-secret', { accept: 'application/pdf' }));
    expect(document).toEqual([
      {
        type: 'resource',
        resource: { uri: `${base}/files/r1.pdf`, mimeType: 'application/pdf', blob: pdf.toString('base64') },
      },
    ]);
    const wrapped = await call(binding('/chart', { accept: 'image/png', structured: true, result: 'wrap' }));
    expect(sent(wrapped)).toEqual({
      content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }],
      structuredContent: { result: png.toString('base64') },
    });
  });

  it('an answer without a type is JSON when it parses, else text', async () => {
    expect(await call(binding('/untyped-json'))).toBe('{"id":"7"}');
    expect(await call(binding('/untyped-json', { structured: true }))).toEqual({ id: '7' });
    expect(await call(binding('/untyped-text'))).toBe('plain words');
  });

  it('a tool whose output is an object refuses text and bytes, and JSON that does not parse', async () => {
    expect(await failure(call(binding('/report.csv', { accept: 'text/csv', structured: true })))).toBe(
      "The upstream API answered text/csv (HTTP 200), not the JSON object the tool's output schema describes.",
    );
    expect(await failure(call(binding('/chart', { structured: true })))).toBe(
      "The upstream API answered image/png (HTTP 200), not the JSON object the tool's output schema describes.",
    );
    expect(await failure(call(binding('/broken-json')))).toBe(
      'The upstream answer (HTTP 200) says application/json, but is not JSON.',
    );
  });

  it("a plain text error is the error's message; markup is not", async () => {
    expect(await failure(call(binding('/plain-error', { accept: 'text/csv' })))).toBe(
      'The upstream API refused the call (HTTP 422): "Quota exceeded for this month."',
    );
    expect(await failure(call(binding('/html-error', { accept: 'text/csv' })))).toBe(
      'The upstream API refused the call (HTTP 400).',
    );
  });

  it('an empty answer with a Location says where the new thing is; with a body, the body is the answer', async () => {
    expect(await call(binding('/created', { method: 'POST' }))).toBe('{"location":"/things/t-9"}');
    expect(await call(binding('/untyped-json', { method: 'POST' }))).toBe('{"id":"7"}');
  });
});
