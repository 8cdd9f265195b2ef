import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { block, changed, drafted, edit, merge, operation } from '../support/update-drafts.js';

// `import openapi --update` writes the user's bytes back: what the merge left alone stays as the file had it (a
// byte-order mark, CRLF line ends, anchors, the file's order of tools, the user's comments), and only what the
// spec changed is rewritten.

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
