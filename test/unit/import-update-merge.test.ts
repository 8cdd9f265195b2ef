import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { copyAsJson, renderDraft } from '../../src/import/draft.js';
import { draftFromOpenApi } from '../../src/import/from-openapi.js';
import { updateManifest } from '../../src/import/update.js';
import { block, drafted, edit, v1, v2 } from '../support/update-drafts.js';

// `import openapi --update` as a pure merge: the draft of v1 (the base), the user's hand-edited manifest, and
// the draft of v2 (one operation added, some changed, two dropped). Every curation stays, the spec's changes
// come in where the user did not touch them, and the field both changed is a conflict that keeps the user's value.

/** Twelve kinds of edit a user makes to a draft. */
function handEdited(): string {
  let text = drafted;
  // 1. rename a tool; 2. rewrite its description (the spec rewrites it too: the conflict)
  text = edit(text, '  list_pets:\n', '  browse_pets:\n');
  text = edit(
    text,
    '      Every pet in the shop, newest first, as a list of pet objects.',
    '      Browse pets, newest first.',
  );
  // 3. retitle; 4. add approval; 5. change a schema field's description; 6. add comments of one's own
  const getPet = block(text, 'get_pet');
  let ours = edit(getPet, '    title: Get a pet\n', '    title: Look up one pet\n');
  ours = edit(ours, '    input:\n', '    approval: confirm\n    input:\n');
  ours = edit(ours, 'description: The pet id\n', 'description: The id from browse_pets\n');
  ours = edit(ours, '      path: /pets/{id}\n', '      path: /pets/{id} # the REST path\n');
  text = edit(text, getPet, `  # my comment about pets\n${ours}`);
  // 7. change an annotation; 8. add a tag of one's own
  text = edit(text, '      idempotentHint: false\n', '      idempotentHint: true\n');
  text = edit(text, '    approval: confirm\n    input:\n', '    approval: confirm\n    tags: [mine]\n    input:\n');
  // 9. remove a tool (the spec changes it later)
  text = edit(text, block(text, 'list_owners'), '');
  // 10. reorder keys; 11. add a key of one's own; 12. change a config default
  text = edit(
    text,
    '  name: pets\n  version: 1.0.0\n',
    '  version: 1.0.0\n  name: pets\n  instructions: Ask before deleting.\n',
  );
  text = edit(text, 'default: https://pets.example.com', 'default: https://staging.pets.example.com');
  return text;
}

describe('import openapi --update, as a merge', () => {
  const user = handEdited();
  const outcome = updateManifest(
    user,
    'mcp.yaml',
    copyAsJson(v1.data) as Record<string, unknown>,
    {
      ...v2,
      data: copyAsJson(v2.data) as Record<string, unknown>,
    },
    (name) => name === 'delete_pet',
  );
  const merged = parse(outcome.text) as Record<string, Record<string, Record<string, unknown>>>;

  it('reports what came, went and stayed', () => {
    expect(outcome.tools).toEqual({
      added: ['list_photos'],
      removed: ['get_inventory'],
      keptForHandler: ['delete_pet'],
      stillRemoved: ['list_owners'],
      renamedBySpec: [],
    });
    expect(outcome.updated).toEqual(['tools.get_pet.description']);
  });

  it('keeps every curation, and takes the spec change the user did not touch', () => {
    const expected = parse(user) as Record<string, Record<string, Record<string, unknown>>>;
    const tools = expected.tools as Record<string, Record<string, unknown>>;
    (tools.get_pet as Record<string, unknown>).description =
      'Get a pet\n\nOne pet by its id, with its name, status and photo URLs.';
    delete tools.get_inventory;
    tools.list_photos = (copyAsJson(v2.data) as Record<string, Record<string, unknown>>).tools?.list_photos as Record<
      string,
      unknown
    >;
    expect(merged).toEqual(expected);
    expect(Object.keys(merged.tools ?? {})).toEqual([
      'browse_pets',
      'create_pet',
      'get_pet',
      'delete_pet',
      'list_photos',
    ]);
    expect(Object.keys(merged.server ?? {})).toEqual(['version', 'name', 'instructions', 'title']);
  });

  it("keeps the user's comments and formatting, and the draft's notes of the new tool", () => {
    for (const line of [
      '  # my comment about pets\n  get_pet:\n',
      '      path: /pets/{id} # the REST path\n',
      // As the user wrote it: a tool the merge left alone is put back line for line (src/import/update-text.ts).
      '    tags: [mine]\n',
      '  # added by import --update: an operation new in the spec\n' +
        '  # GET /pets/{id}/photos ("listPhotos")\n  list_photos:\n',
    ])
      expect(outcome.text).toContain(line);
    // Everything above the tools section is the user's text as it was.
    const head = (text: string) => text.slice(0, text.indexOf('\ntools:\n'));
    expect(head(outcome.text)).toBe(head(user));
  });

  it("reports the conflict at its line and column, with both values, and keeps the user's", () => {
    const line = outcome.text.split('\n').indexOf('  browse_pets:') + 4;
    expect(outcome.conflicts).toEqual([
      {
        line,
        col: 18,
        field: 'tools.browse_pets.description',
        ours: 'List pets\n\nBrowse pets, newest first.',
        theirs: 'List pets\n\nEvery pet in the shop, newest first, 50 to a page.',
      },
    ]);
    expect(outcome.text.split('\n')[line - 1]).toBe('    description: |-');
  });
});

describe('import openapi --update, shared schemas', () => {
  const thing = { type: 'object', properties: { id: { type: 'string', maxLength: 9 } } };
  const api = (withThing: boolean) => ({
    openapi: '3.0.3',
    info: { title: 'Things', version: '1.0.0' },
    paths: {
      '/ping': { get: { operationId: 'getPing', responses: { '204': { description: 'none' } } } },
      ...(withThing
        ? {
            '/thing': {
              get: {
                operationId: 'getThing',
                responses: {
                  '200': {
                    description: 'ok',
                    content: {
                      'application/json': {
                        schema: { type: 'object', properties: { thing: { $ref: '#/components/schemas/Thing' } } },
                      },
                    },
                  },
                },
              },
            },
          }
        : {}),
    },
    components: { schemas: { Thing: thing } },
  });

  it('keeps a schema the spec dropped while a kept tool still refers to it', () => {
    const before = draftFromOpenApi(api(true), 'things.json');
    const after = draftFromOpenApi(api(false), 'things.json');
    const run = (handler: boolean) =>
      updateManifest(
        renderDraft(before),
        'mcp.yaml',
        copyAsJson(before.data) as Record<string, unknown>,
        { ...after, data: copyAsJson(after.data) as Record<string, unknown> },
        (name) => handler && name === 'get_thing',
      );
    expect(Object.keys((run(true).data.schemas ?? {}) as object)).toEqual(['Thing']);
    expect(run(false).data.schemas).toBeUndefined();
    expect(Object.keys(run(false).data.tools as object)).toEqual(['get_ping']);
  });
});

describe('import openapi --update, tools without a binding', () => {
  it("matches a drafted tool whose binding the user removed by its name, and never a tool of the user's own", () => {
    let user = drafted;
    user = edit(user, '    http:\n      method: GET\n      path: /pets/{id}\n      args:\n        id: path\n', '');
    user = edit(
      user,
      '  # GET /pets/{id} ("getPet")\n',
      '  list_photos:\n    title: My photos\n    description: Photos I keep myself, by pet id; a tool of my own.\n' +
        '    input: { type: object, additionalProperties: false, properties: {} }\n' +
        '  # GET /pets/{id} ("getPet")\n',
    );
    const outcome = updateManifest(
      user,
      'mcp.yaml',
      copyAsJson(v1.data) as Record<string, unknown>,
      { ...v2, data: copyAsJson(v2.data) as Record<string, unknown> },
      () => false,
    );
    const tools = outcome.data.tools as Record<string, Record<string, unknown>>;
    expect(outcome.tools.added).toEqual(['list_photos_2']);
    expect(tools.list_photos?.title).toBe('My photos');
    expect(tools.get_pet?.description).toBe('Get a pet\n\nOne pet by its id, with its name, status and photo URLs.');
    expect(tools.get_pet?.http).toBeUndefined();
    expect(outcome.updated).toContain('tools.get_pet.description');
  });

  it("brings what the importer learned since the last import, where the user did not edit, keeping the user's", () => {
    // The record of an import made before http.accept: the CSV export had a wrapped string output and no accept.
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Reports', version: '1.0.0' },
      servers: [{ url: 'https://reports.example.com' }],
      paths: {
        '/reports/{id}.csv': {
          get: {
            summary: 'Export a report as CSV',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'Rows.', content: { 'text/csv': { schema: { type: 'string' } } } } },
          },
        },
      },
    };
    const now = draftFromOpenApi(spec, 'reports.json');
    const older = copyAsJson(now.data) as {
      tools: Record<string, { http: Record<string, unknown>; output?: unknown }>;
    };
    const csv = older.tools.list_reports;
    if (csv === undefined) throw new Error(`no CSV tool in ${Object.keys(older.tools).join(', ')}`);
    delete csv.http.accept;
    csv.http.result = 'wrap';
    csv.output = { type: 'object', required: ['result'], properties: { result: { type: 'string' } } };
    const user = edit(
      renderDraft({ ...now, data: older }),
      '    title: Export a report as CSV\n',
      '    title: Monthly export\n',
    );
    const outcome = updateManifest(
      user,
      'mcp.yaml',
      older,
      { ...now, data: copyAsJson(now.data) as Record<string, unknown> },
      () => false,
    );
    const tool = (outcome.data.tools as Record<string, Record<string, unknown>>).list_reports;
    expect([tool?.title, tool?.http, tool?.output]).toEqual([
      'Monthly export',
      { method: 'GET', path: '/reports/{id}.csv', args: { id: 'path' }, accept: 'text/csv' },
      undefined,
    ]);
    expect(outcome.conflicts).toEqual([]);
  });
});
