import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../templates/runtime/handler.gen.js';
import {
  bindTool,
  type HttpBindingSpec,
  startUpstream,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';
import { generated, importedUpstream } from './imported.js';
import type { Seen } from './recorder.js';

// A file in a multipart body (OpenAPI 3.0 `format: binary`, Swagger 2.0 `type: file`), from the document to the
// bytes a recording upstream on 127.0.0.1 receives: the import makes the member base64 text a model can write, the
// generator marks it a file part, and the runtime sends the decoded bytes with a file name and the part's content
// type (the Encoding Object's, else application/octet-stream). Before, the part carried the text the model wrote.

const { out, seen, config } = importedUpstream('upstream-files', 'FILES_URL');

const multipart = (schema: Record<string, unknown>, encoding?: Record<string, unknown>) => ({
  required: true,
  content: { 'multipart/form-data': { schema, ...(encoding === undefined ? {} : { encoding }) } },
});
const ok = { '200': { description: 'ok' } };

const openapi = {
  openapi: '3.0.3',
  info: { title: 'Files', version: '1.0.0' },
  servers: [{ url: 'https://files.example.com' }],
  components: { schemas: { Blob: { type: 'string', format: 'binary' } } },
  paths: {
    '/photos': {
      post: {
        operationId: 'upload_photo',
        requestBody: multipart(
          {
            type: 'object',
            properties: {
              caption: { type: 'string' },
              photo: { type: 'string', format: 'binary', description: 'The photo.' },
              extras: { type: 'array', items: { $ref: '#/components/schemas/Blob' } },
            },
          },
          { photo: { contentType: 'image/png' } },
        ),
        responses: ok,
      },
    },
  },
};

const swagger = {
  swagger: '2.0',
  info: { title: 'Files', version: '1.0.0' },
  host: 'files.example.com',
  schemes: ['https'],
  paths: {
    '/photos': {
      post: {
        operationId: 'upload_photo',
        consumes: ['multipart/form-data'],
        parameters: [
          { name: 'caption', in: 'formData', type: 'string' },
          { name: 'photo', in: 'formData', type: 'file', required: true },
        ],
        responses: ok,
      },
    },
  },
};

type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const upstream: UpstreamSpec = { baseUrl: 'FILES_URL', credential: { type: 'none' } };

/** The request `input` sends through `b`, with its boundary written as B; or the error, and nothing sent. */
async function send(b: HttpBindingSpec, input: Record<string, unknown>) {
  const at = seen.length;
  startUpstream(config, null);
  try {
    await bindTool<Call>(upstream, b)(input, { signal: AbortSignal.timeout(20_000) });
  } catch (error) {
    return { error, sent: seen.length - at };
  }
  const request = seen[at] as Seen;
  const boundary = /boundary=(\S+)$/.exec(request.headers['content-type'] ?? '')?.[1] ?? '';
  return { url: request.url, bytes: Buffer.from(request.bytes.toString('latin1').split(boundary).join('B'), 'latin1') };
}

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const part = (head: string, data: string | Buffer) => [Buffer.from(`--B\r\n${head}\r\n\r\n`), Buffer.from(data)];

describe('a file in a multipart body is sent as its bytes', () => {
  it('OpenAPI 3.0: format binary members (and an array of them) are base64 inputs sent as file parts', async () => {
    const { binding, input } = await generated(path.join(out, 'openapi'), openapi, 'upload_photo');
    const body = (input.properties as Record<string, Record<string, unknown>>).body?.properties;
    expect(body).toEqual({
      caption: { type: 'string' },
      photo: { type: 'string', contentEncoding: 'base64', description: "The photo. (the file's bytes, base64)" },
      extras: {
        type: 'array',
        items: { type: 'string', contentEncoding: 'base64', description: "(the file's bytes, base64)" },
      },
    });
    const sent = await send(binding, {
      body: { caption: 'Rex', photo: png.toString('base64'), extras: ['AAE=', '/w=='] },
    });
    expect(sent).toEqual({
      url: '/photos',
      bytes: Buffer.concat([
        ...part('Content-Disposition: form-data; name="caption"', 'Rex\r\n'),
        ...part('Content-Disposition: form-data; name="photo"; filename="photo"\r\nContent-Type: image/png', png),
        Buffer.from('\r\n'),
        ...part(
          'Content-Disposition: form-data; name="extras"; filename="extras"\r\nContent-Type: application/octet-stream',
          Buffer.from([0x00, 0x01, 0x0d, 0x0a]),
        ),
        ...part(
          'Content-Disposition: form-data; name="extras"; filename="extras"\r\nContent-Type: application/octet-stream',
          Buffer.from([0xff, 0x0d, 0x0a]),
        ),
        Buffer.from('--B--\r\n'),
      ]),
    });
  });

  it('Swagger 2.0: a formData file parameter is a base64 input sent as a file part', async () => {
    const { binding } = await generated(path.join(out, 'swagger'), swagger, 'upload_photo');
    const sent = await send(binding, { body: { caption: 'Rex', photo: png.toString('base64') } });
    expect(sent).toEqual({
      url: '/photos',
      bytes: Buffer.concat([
        ...part('Content-Disposition: form-data; name="caption"', 'Rex\r\n'),
        ...part(
          'Content-Disposition: form-data; name="photo"; filename="photo"\r\nContent-Type: application/octet-stream',
          png,
        ),
        Buffer.from('\r\n--B--\r\n'),
      ]),
    });
  });

  it('a file that is not base64 text is a tool error, and nothing is sent', async () => {
    const { binding } = await generated(path.join(out, 'openapi'), openapi, 'upload_photo');
    expect(await send(binding, { body: { photo: 'not base64!' } })).toEqual({
      error: new ToolError('The argument "body.photo" is not base64 text; nothing was sent.'),
      sent: 0,
    });
  });
});
