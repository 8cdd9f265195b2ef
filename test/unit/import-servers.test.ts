import { describe, expect, it } from 'vitest';
import { draftFromOpenApi } from '../../src/import/index.js';

// Where import openapi sends each operation: the first server with its variables' defaults is upstream.baseUrl; an
// operation or path item with servers of its own gets http.baseUrl, a config variable of that URL (one per URL);
// a path item that is a $ref within the document is followed, one that leads nowhere is left out with a warning.

type Draft = {
  config: Record<string, Record<string, unknown>>;
  upstream: Record<string, unknown>;
  tools: Record<string, { http: Record<string, unknown> }>;
};

const document = {
  openapi: '3.0.3',
  info: { title: 'Files', version: '1.0.0' },
  servers: [
    { url: 'https://{region}.files.example.com/{version}', variables: { region: { default: 'eu' }, version: {} } },
    { url: 'https://files.example.com' },
  ],
  paths: {
    '/files': {
      get: { operationId: 'listFiles' },
      post: { operationId: 'uploadFile', servers: [{ url: 'https://uploads.example.com' }] },
    },
    '/files/{id}': {
      servers: [{ url: 'https://uploads.example.com' }],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      put: { operationId: 'replaceFile' },
      delete: { operationId: 'deleteFile', servers: [] },
      get: { operationId: 'getFile', servers: [{ url: '/v2' }] },
    },
    '/archive': { $ref: '#/paths/~1files' },
    '/health': { get: { operationId: 'health', servers: [{ url: 'https://eu.files.example.com/' }] } },
    '/bulk': {
      post: {
        operationId: 'bulk',
        servers: [{ url: 'https://bulk.example.com/a/very/long/path/on/and/on/and/on/forever' }],
      },
    },
    '/outside': { $ref: 'other.yaml#/paths/~1x' },
    '/loop': { $ref: '#/paths/~1loop' },
  },
};

describe('import openapi: the servers of each operation', () => {
  it('a server variable without a default stays written, so the base URL gets no default and a TODO', () => {
    const { data, notes } = draftFromOpenApi(document, 'files.json');
    const d = data as Draft;
    expect(d.config.FILES_BASE_URL).toEqual({
      description:
        'The base URL of the API the tools call (the spec\'s "https://{region}.files.example.com/{version}" with ' +
        'region=eu).',
      type: 'url',
      required: false,
    });
    expect(notes.find((n) => n.path[1] === 'FILES_BASE_URL')?.text).toBe(
      'TODO upstream: the spec\'s first server "https://eu.files.example.com/{version}" is not an absolute URL; ' +
        'set a default',
    );
  });

  it("an operation's servers win over its path item's; an empty list is none; one variable per URL", () => {
    const { data, warnings, notes } = draftFromOpenApi(
      {
        ...document,
        servers: [{ url: 'https://{region}.files.example.com', variables: { region: { default: 'eu' } } }],
      },
      'files.json',
    );
    const d = data as Draft;
    expect(d.config.FILES_BASE_URL?.default).toBe('https://eu.files.example.com');
    expect(Object.fromEntries(Object.entries(d.tools).map(([name, t]) => [name, t.http.baseUrl ?? null]))).toEqual({
      list_files: null,
      upload_file: 'FILES_UPLOADS_BASE_URL',
      replace_file: 'FILES_UPLOADS_BASE_URL',
      delete_file: 'FILES_UPLOADS_BASE_URL',
      get_file: 'FILES_V2_BASE_URL',
      // The referenced item's operations, their operationIds taken: numbered.
      list_files_2: null,
      upload_file_2: 'FILES_UPLOADS_BASE_URL',
      // The first server with a trailing slash is the same URL.
      list_health: null,
      // A long URL names its variable by the words that fit in 40 characters.
      create_bulk: 'FILES_BULK_A_VERY_LONG_PATH_ON_AND_ON_AND_ON_BASE_URL',
    });
    expect(Object.keys(d.tools.upload_file?.http ?? {})).toEqual(['method', 'path', 'baseUrl']);
    expect([d.config.FILES_UPLOADS_BASE_URL, d.config.FILES_V2_BASE_URL]).toEqual([
      {
        description: 'The base URL of the operations the API serves at "https://uploads.example.com".',
        type: 'url',
        default: 'https://uploads.example.com',
      },
      { description: 'The base URL of the operations the API serves at "/v2".', type: 'url', required: false },
    ]);
    expect(notes.filter((n) => n.path[1] === 'get_file' && n.path[2] === 'http').map((n) => n.text)).toEqual([
      'The spec serves this operation at "/v2", not the API\'s base URL: http.baseUrl names it',
      'TODO upstream: the operation\'s server "/v2" is not an absolute URL; set FILES_V2_BASE_URL',
    ]);
    expect(warnings).toEqual([
      'path "/outside": its $ref "other.yaml#/paths/~1x" is not a path item of this document (a circular or ' +
        'outside reference); its operations are left out',
      'path "/loop": its $ref "#/paths/~1loop" is not a path item of this document (a circular or outside ' +
        'reference); its operations are left out',
    ]);
  });
});
