import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { copyAsJson, type Draft, renderDraft } from '../../src/import/draft.js';
import { draftFromOpenApi } from '../../src/import/from-openapi.js';
import { updateManifest } from '../../src/import/update.js';
import { petSpecV1, petSpecV2 } from '../support/pet-specs.js';

// `import openapi --update` as a pure merge: the draft of v1 (the base), the user's hand-edited manifest, and
// the draft of v2 (one operation added, some changed, two dropped). Every curation stays, the spec's changes
// come in where the user did not touch them, and the field both changed is a conflict that keeps the user's value.

/** `text` with `from` replaced by `to`, failing when `from` is not in it (so an edit never silently misses). */
function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`not in the manifest: ${from}`);
  return text.replace(from, to);
}

/** The tool `name`'s block of the rendered draft, from its comment line to the next tool's. */
function block(text: string, name: string): string {
  const start = text.indexOf(`  ${name}:\n`);
  const end = text.indexOf('\n  # ', start);
  return text.slice(start, end === -1 ? undefined : end + 1);
}

const v1 = draftFromOpenApi(petSpecV1(), 'pets.json');
const v2 = draftFromOpenApi(petSpecV2(), 'pets.json');
const drafted = renderDraft(v1);

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

type Paths = Record<string, Record<string, Record<string, unknown>>>;

/** The draft of v1 with `change` made to its paths. */
function changed(change: (paths: Paths) => void): Draft {
  const spec = petSpecV1();
  change(spec.paths as Paths);
  const draft = draftFromOpenApi(spec, 'pets.json');
  return { ...draft, data: copyAsJson(draft.data) as Record<string, unknown> };
}

/** `--update` of the user's text of v1's draft, the spec's draft now being `next`, with no handler written. */
const merge = (user: string, next: Draft) =>
  updateManifest(user, 'mcp.yaml', copyAsJson(v1.data) as Record<string, unknown>, next, () => false);

/** v1's operation at `path` and `method`, to change. */
function operation(paths: Paths, path: string, method: string): Record<string, unknown> {
  const found = paths[path]?.[method];
  if (found === undefined) throw new Error(`no ${method} ${path}`);
  return found;
}

describe('import openapi --update, an operation whose method or path changed', () => {
  it('keeps the curated tool of an operation the spec moved to a new path, under its name', () => {
    const user = edit(drafted, '    title: Get a pet\n', '    title: Fetch one pet\n    approval: confirm\n');
    const next = changed((paths) => {
      paths['/animals/{id}'] = { get: operation(paths, '/pets/{id}', 'get') };
      delete paths['/pets/{id}']?.get;
    });
    const outcome = merge(user, next);
    expect(outcome.tools).toEqual({ added: [], removed: [], keptForHandler: [], stillRemoved: [], renamedBySpec: [] });
    expect(outcome.updated).toEqual(['tools.get_pet.http.path']);
    const tool = (outcome.data.tools as Record<string, Record<string, unknown>>).get_pet;
    expect([tool?.title, tool?.approval, tool?.http]).toEqual([
      'Fetch one pet',
      'confirm',
      { method: 'GET', path: '/animals/{id}', args: { id: 'path' } },
    ]);
    expect(Object.keys(outcome.data.tools as object)).toEqual(Object.keys(v1.data.tools as object));
  });

  it('leaves out the tool of a moved operation that the user removed', () => {
    const user = edit(drafted, `  # GET /pets/{id} ("getPet")\n${block(drafted, 'get_pet')}`, '');
    const next = changed((paths) => {
      paths['/animals/{id}'] = { get: operation(paths, '/pets/{id}', 'get') };
      delete paths['/pets/{id}']?.get;
    });
    const outcome = merge(user, next);
    expect([outcome.tools.added, outcome.tools.stillRemoved]).toEqual([[], ['get_pet']]);
    expect(Object.keys(outcome.data.tools as object)).not.toContain('get_pet');
  });

  it('follows a tool whose binding the user pointed at another path, by its name', () => {
    const user = edit(
      drafted,
      '      path: /pets/{id}\n      args:\n        id: path\n  # DELETE',
      '      path: /v2/pets/{id}\n      args:\n        id: path\n  # DELETE',
    );
    const spec = (gone: boolean) =>
      changed((paths) => {
        if (gone) delete paths['/pets/{id}']?.get;
        else operation(paths, '/pets/{id}', 'get').description = 'One pet by its id, with its photos.';
      });
    const outcome = merge(user, spec(false));
    expect([outcome.tools.stillRemoved, outcome.updated, outcome.conflicts]).toEqual([
      [],
      ['tools.get_pet.description'],
      [],
    ]);
    const tool = (outcome.data.tools as Record<string, Record<string, unknown>>).get_pet;
    expect([tool?.description, (tool?.http as Record<string, unknown> | undefined)?.path]).toEqual([
      'Get a pet\n\nOne pet by its id, with its photos.',
      '/v2/pets/{id}',
    ]);
    // The spec drops the operation: its tool goes, as any dropped operation's does.
    expect(merge(user, spec(true)).tools.removed).toEqual(['get_pet']);
  });
});

describe('import openapi --update, the bytes the user wrote', () => {
  it('puts back every section and tool the merge left alone as the file had it, flow collections or not', () => {
    // No flow collection anywhere: an empty `properties: {}` becomes a property of the user's own.
    let user = drafted.replaceAll(
      '      properties: {}\n',
      '      properties:\n        note:\n          type: string\n',
    );
    user = edit(user, '  name: pets\n', '  name: pets      # ours, aligned\n');
    user = edit(user, '\nconfig:\n', '\n\n\n# where the API is\nconfig:\n');
    user = edit(
      user,
      '    description: |-\n      Delete a pet\n\n      Remove a pet from the shop for good; it cannot be undone.\n',
      '    description: >-\n      Delete a pet\n\n' +
        '      Remove a pet from the shop\n      for good; it cannot be undone.\n',
    );
    user = edit(user, '      method: DELETE\n', '      method: DELETE   # on purpose\n');
    expect(user).not.toMatch(/: [[{]/);
    const next = changed((paths) => {
      operation(paths, '/pets/{id}', 'get').description = 'One pet by its id, with its photos.';
    });
    const outcome = merge(user, next);
    expect([outcome.updated, outcome.conflicts]).toEqual([['tools.get_pet.description'], []]);
    expect(outcome.text).toBe(
      edit(user, '      One pet by its id, with its name and status.\n', '      One pet by its id, with its photos.\n'),
    );
  });
});

describe('import openapi --update, a file with a byte-order mark', () => {
  it('keeps the mark, and changes only the lines the spec changed', () => {
    const user = `\uFEFF${edit(drafted, '    title: Get a pet\n', '    title: Look up one pet\n')}`;
    const next = changed((paths) => {
      operation(paths, '/pets/{id}', 'get').summary = 'Get one pet';
    });
    const outcome = merge(user, next);
    const line = user.split('\n').indexOf('    title: Look up one pet') + 1;
    expect(outcome.conflicts.map((c) => [c.field, c.line, c.col])).toEqual([['tools.get_pet.title', line, 12]]);
    expect(outcome.text).toBe(edit(user, '      Get a pet\n', '      Get one pet\n'));
  });
});

describe('import openapi --update, a file with CRLF line ends', () => {
  it('writes the merged manifest with CRLF line ends again, changing only the lines the spec changed', () => {
    const user = edit(drafted, '    title: Get a pet\n', '    title: Look up one pet\n').replaceAll('\n', '\r\n');
    const next = changed((paths) => {
      operation(paths, '/pets/{id}', 'get').summary = 'Get one pet';
      operation(paths, '/pets', 'get').description = 'Every pet in the shop, newest first, 50 to a page.';
    });
    const outcome = merge(user, next);
    const line = user.split('\r\n').indexOf('    title: Look up one pet') + 1;
    expect(outcome.conflicts).toEqual([
      { line, col: 12, field: 'tools.get_pet.title', ours: 'Look up one pet', theirs: 'Get one pet' },
    ]);
    expect(outcome.text).toBe(
      edit(
        edit(user, '      Get a pet\r\n', '      Get one pet\r\n'),
        'newest first, as a list of pet objects.\r\n',
        'newest first, 50 to a page.\r\n',
      ),
    );
  });
});

describe('import openapi --update, a value the user shares through an anchor', () => {
  // get_pet's id schema is anchored, and delete_pet's is an alias of it.
  const idSchema = '        id:\n          type: string\n          maxLength: 40\n          description: The pet id\n';
  const shared = (() => {
    const at = drafted.indexOf(idSchema);
    const second = drafted.indexOf(idSchema, at + 1);
    if (at < 0 || second < 0) throw new Error('the id schema is not drafted twice');
    return (
      drafted.slice(0, at) +
      idSchema.replace('        id:\n', '        id: &pet_id\n') +
      drafted.slice(at + idSchema.length, second) +
      '        id: *pet_id\n' +
      drafted.slice(second + idSchema.length)
    );
  })();
  const idOf = (outcome: ReturnType<typeof merge>, tool: string) => {
    const input = (outcome.data.tools as Record<string, { input: { properties: Record<string, unknown> } }>)[tool]
      ?.input;
    return input?.properties.id;
  };

  it('changes the place the spec changed, and keeps the value of the places that share it', () => {
    const next = changed((paths) => {
      const get = operation(paths, '/pets/{id}', 'get');
      get.parameters = [{ ...(get.parameters as Record<string, unknown>[])[0], description: 'The id of the pet' }];
    });
    const outcome = merge(shared, next);
    expect([outcome.updated, outcome.conflicts]).toEqual([['tools.get_pet.input.properties.id.description'], []]);
    expect([idOf(outcome, 'get_pet'), idOf(outcome, 'delete_pet')]).toEqual([
      { type: 'string', maxLength: 40, description: 'The id of the pet' },
      { type: 'string', maxLength: 40, description: 'The pet id' },
    ]);
    expect(parse(outcome.text)).toEqual(outcome.data);
  });

  it('drops a tool that holds an anchor, and the tools that shared it keep their value', () => {
    const next = changed((paths) => {
      delete paths['/pets/{id}']?.get;
    });
    const outcome = merge(shared, next);
    expect(outcome.tools.removed).toEqual(['get_pet']);
    expect(idOf(outcome, 'delete_pet')).toEqual({ type: 'string', maxLength: 40, description: 'The pet id' });
    expect(parse(outcome.text)).toEqual(outcome.data);
  });
});

describe('import openapi --update, conflicts in a file whose tools are in an order of its own', () => {
  it('reports the conflicts in the order of the file, not of the spec', () => {
    const getPet = block(drafted, 'get_pet');
    let user = edit(drafted, `  # GET /pets/{id} ("getPet")\n${getPet}`, '');
    user = edit(
      user,
      '  # GET /pets ("listPets")\n',
      `  # GET /pets/{id} ("getPet")\n${getPet}  # GET /pets ("listPets")\n`,
    );
    user = edit(user, 'One pet by its id, with its name and status.', 'One pet, mine.');
    user = edit(user, 'Every pet in the shop, newest first, as a list of pet objects.', 'Every pet, mine.');
    const next = changed((paths) => {
      operation(paths, '/pets/{id}', 'get').description = 'One pet by its id, with its photos.';
      operation(paths, '/pets', 'get').description = 'Every pet in the shop, 50 to a page.';
    });
    const outcome = merge(user, next);
    const lines = user.split('\n');
    expect(outcome.conflicts.map((c) => [c.field, c.line])).toEqual([
      ['tools.get_pet.description', lines.indexOf('  get_pet:') + 4],
      ['tools.list_pets.description', lines.indexOf('  list_pets:') + 4],
    ]);
  });
});

describe('import openapi --update, a comment of the user at the end of a tool', () => {
  // The library prints the next tool's draft comment after the user's, at the user's indentation.
  const user = edit(
    drafted,
    '      path: /pets\n  # POST /pets ("createPet")\n',
    '      path: /pets\n      # ask the API team about paging\n  # POST /pets ("createPet")\n',
  );

  it('is not written twice when the spec changed that tool', () => {
    const next = changed((paths) => {
      operation(paths, '/pets', 'get').description = 'Every pet in the shop, 50 to a page.';
    });
    expect(merge(user, next).text).toBe(edit(user, 'newest first, as a list of pet objects.\n', '50 to a page.\n'));
  });

  it("keeps the next tool's comment when the spec changed the next tool", () => {
    const next = changed((paths) => {
      operation(paths, '/pets', 'post').description = 'Add a pet; returns it with its id.';
    });
    expect(merge(user, next).text).toBe(
      edit(
        edit(user, '  # POST /pets ("createPet")\n', '      # POST /pets ("createPet")\n'),
        'Add a pet to the shop and return it with the id it was given.\n',
        'Add a pet; returns it with its id.\n',
      ),
    );
  });
});
