import { describe, expect, it } from 'vitest';
import { NameAllocator } from '../../src/import/names.js';
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

  it('fits a long name in 64 characters between words: an id parameter echoed first, then words after the verb', () => {
    const adyen = 'post-companies-companyId-apiCredentials-apiCredentialId-generateClientKey';
    const route = '/companies/{companyId}/apiCredentials/{apiCredentialId}/generateClientKey';
    // 79 characters whole, 68 without `company_id`: both id echoes go.
    expect(operationName('post', route, adyen)).toBe('post_companies_api_credentials_generate_client_key');
    const users = 'get-companies-companyId-apiCredentials-apiCredentialId-allowedOrigins';
    const origins = '/companies/{companyId}/apiCredentials/{apiCredentialId}/allowedOrigins';
    // 66 characters whole: the first echo is enough, the second stays.
    expect(operationName('get', origins, users)).toBe(
      'get_companies_api_credentials_api_credential_id_allowed_origins',
    );
    const github = 'actions/get-fork-pr-contributor-approval-permissions-organization';
    expect(operationName('get', '/orgs/{org}/actions/permissions/fork-pr-contributor-approval', github)).toBe(
      'get_fork_pr_contributor_approval_permissions_organization',
    );
    // A one-word parameter (`repo`) is a noun of the name as well: it stays, the words after the verb go.
    const runner = 'actions/remove-all-custom-labels-from-self-hosted-runner-for-repo';
    expect(operationName('delete', '/repos/{owner}/{repo}/actions/runners/{runner_id}/labels', runner)).toBe(
      'remove_all_custom_labels_from_self_hosted_runner_for_repo',
    );
    expect(operationName('get', '/x', `get-${'a'.repeat(70)}`)).toBe(`get_${'a'.repeat(60)}`);
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

describe('NameAllocator', () => {
  it('numbers a second long name between words, the number last', () => {
    const names = new NameAllocator();
    const long = `list_${Array.from({ length: 12 }, (_, i) => `word${String.fromCharCode(97 + i)}`).join('_')}`;
    expect(names.allocate(long, 'op')).toBe('list_wordc_wordd_worde_wordf_wordg_wordh_wordi_wordj_wordk_wordl');
    expect(names.allocate(long, 'op')).toBe('list_wordd_worde_wordf_wordg_wordh_wordi_wordj_wordk_wordl_2');
  });
});
