import { describe, expect, it } from 'vitest';
import { block, changed, drafted, edit, merge, operation, v1 } from '../support/update-drafts.js';

// `import openapi --update` when the spec moved an operation to another method or path: the curated tool follows
// it by its name, and one the user removed stays out.

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
