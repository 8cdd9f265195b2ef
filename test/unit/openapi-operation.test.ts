import { describe, expect, it } from 'vitest';
import { operationName, operationPolicy } from '../../src/import/openapi-operation.js';

// Names and hints of drafted OpenAPI operations: verb first, so the design lint reads the verb, and
// every hint written out, so no tool relies on MCP's defaults.

describe('operationName', () => {
  it('puts the verb of the operationId first', () => {
    expect(operationName('get', '/pets/{id}', 'getPetById')).toBe('get_pet_by_id');
    expect(operationName('patch', '/repos/{owner}/{repo}/issues/{n}', 'issues/update')).toBe('update_issues');
    expect(operationName('get', '/repos/{owner}/{repo}/contents/{path}', 'repos/get-content')).toBe(
      'get_repos_content',
    );
  });

  it('names from the method and path when the operationId has no verb, or there is none', () => {
    expect(operationName('get', '/pets', undefined)).toBe('list_pets');
    expect(operationName('get', '/pets/{petId}', undefined)).toBe('get_pets');
    expect(operationName('post', '/pets', undefined)).toBe('create_pets');
    expect(operationName('delete', '/pets/{petId}', 'pet')).toBe('delete_pet');
    expect(operationName('get', '/', undefined)).toBe('list_root');
  });

  it('never gives a read a name that says it changes data', () => {
    expect(operationName('get', '/archive/list', 'archive/list')).toBe('get_archive_list');
  });
});

describe('operationPolicy', () => {
  const hints = (r: boolean, d: boolean, i: boolean) => ({
    readOnlyHint: r,
    destructiveHint: d,
    idempotentHint: i,
    openWorldHint: true,
  });

  it('judges GET, DELETE, PUT and PATCH by their method', () => {
    expect(operationPolicy('get', 'list_pets')).toEqual({
      annotations: hints(true, false, true),
      approval: null,
      todos: [],
    });
    expect(operationPolicy('delete', 'delete_pet')).toEqual({
      annotations: hints(false, true, true),
      approval: 'confirm',
      todos: [],
    });
    expect(operationPolicy('put', 'update_pet').annotations).toEqual(hints(false, true, true));
    expect(operationPolicy('patch', 'update_pet').annotations).toEqual(hints(false, true, false));
  });

  it('judges a POST by the verb of its name, each with a TODO', () => {
    const search = operationPolicy('post', 'search_pets');
    expect([search.annotations, search.approval, search.todos.length]).toEqual([hints(true, false, true), null, 1]);
    const cancel = operationPolicy('post', 'cancel_order');
    expect([cancel.annotations, cancel.approval, cancel.todos.length]).toEqual([
      hints(false, true, false),
      'confirm',
      1,
    ]);
    const create = operationPolicy('post', 'add_pet');
    expect([create.annotations, create.approval]).toEqual([hints(false, false, false), 'confirm']);
    expect(create.todos[1]).toMatch(/^TODO idempotency: .* add "idempotency: key" if the API accepts/);
  });
});
