import { describe, expect, it } from 'vitest';
import { type Searchable, ToolIndex } from '../../templates/runtime/search-index.gen.js';
import { tool } from './tool-search-support.js';
import { stem, terms, withoutValues } from '../../templates/runtime/search-words.gen.js';

// The ranking of search.gen.ts (discovery: search) on small fixed corpora: BM25F over names split at `_` and case
// changes, titles, tags, descriptions and parameters (a body's fields and enum values too), with verb synonyms and
// concepts at a lower weight and bonuses for the tool whose name says the task's action and object.

const corpus: Searchable[] = [
  tool('issues_create', 'Create an issue in a repository.', { title: 'Create an issue', tags: ['issues'] }),
  tool('issues_list_for_repo', 'List issues in a repository. Only open issues will be listed.', {
    title: 'List repository issues',
    tags: ['issues'],
    properties: { state: { description: 'Indicates the state of the issues to return.' } },
  }),
  tool('issues_delete_comment', 'Deletes a comment on an issue.', { tags: ['issues'] }),
  tool('pullsMerge', 'Merges a pull request into the base branch.', { title: 'Merge a pull request' }),
  tool('pulls_list', 'Lists pull requests in a specified repository.', {
    properties: { base: { description: 'Filter pulls by base branch name.' } },
  }),
  tool('repos_delete', 'Deleting a repository requires admin access.', { title: 'Delete a repository' }),
  tool('repos_get_readme', 'Gets the preferred README for a repository.', { title: 'Get a repository README' }),
  tool('users_get_authenticated', 'Gets the profile of the authenticated user.'),
];

describe('tool search ranking', () => {
  const index = new ToolIndex(corpus);

  it('splits names at underscores and case changes, drops stopwords, and stems', () => {
    expect(terms('pullsMerge issues_list_for_repo HTTPServer')).toEqual([
      'pull',
      'merg',
      'issu',
      'list',
      'repository',
      'http',
      'server',
    ]);
    expect(['created', 'creates', 'creating', 'create'].map(stem)).toEqual(['creat', 'creat', 'creat', 'creat']);
    expect(['repositories', 'branches', 'starred', 'status', 'added', 'add'].map(stem)).toEqual([
      'repository',
      'branch',
      'star',
      'status',
      'add',
      'add',
    ]);
    expect(['reviewers', 'review', 'assignees', 'assign'].map(stem)).toEqual(['review', 'review', 'assign', 'assign']);
  });

  it('ranks by BM25 with exact orders', () => {
    expect(index.search('create an issue', 10)).toEqual([
      'issues_create',
      'issues_list_for_repo',
      'issues_delete_comment',
    ]);
    expect(index.search('merge a pull request', 10)).toEqual(['pullsMerge', 'pulls_list']);
    expect(index.search('show the readme of a repo', 10)).toEqual([
      'repos_get_readme',
      'users_get_authenticated',
      'repos_delete',
      'issues_list_for_repo',
      'issues_create',
      'pulls_list',
    ]);
  });

  it('matches verb synonyms below the verb itself', () => {
    expect(index.search('open a new issue', 2)).toEqual(['issues_create', 'issues_list_for_repo']);
    expect(index.search('remove a repository', 1)).toEqual(['repos_delete']);
    expect(index.search('who am i, my profile', 1)).toEqual(['users_get_authenticated']);
  });

  it('searches only the tools it is allowed to, and finds nothing for unknown words', () => {
    expect(index.search('create an issue', 10, (name) => name !== 'issues_create')).toEqual([
      'issues_list_for_repo',
      'issues_delete_comment',
    ]);
    expect(index.search('zebra quantum', 10)).toEqual([]);
    expect(index.search('the of and', 10)).toEqual([]);
  });

  // Names that say their action first, as mcp-gen's drafts write them.
  const verbFirst = new ToolIndex([
    tool('list_pulls', 'Lists pull requests in a repository.', {
      title: 'List pull requests',
      properties: { state: { description: 'Either open or closed.' } },
    }),
    tool('create_pulls', 'Opens a pull request.', { title: 'Create a pull request' }),
    tool('list_issues', 'Lists issues in a repository.', {
      title: 'List issues',
      properties: { state: { description: 'Either open or closed.' } },
    }),
    tool('update_issues', 'Edits an issue: its title, body or state.', {
      title: 'Update an issue',
      properties: { state: { description: 'Either open or closed.' } },
    }),
  ]);

  it("reads only a task's first word as an action, and ranks the tool that does that action first", () => {
    // "open" after the verb is a state, not "create": the list comes first, the create last.
    expect(verbFirst.search('list the open pull requests', 10)).toEqual([
      'list_pulls',
      'create_pulls',
      'list_issues',
      'update_issues',
    ]);
    // Closing changes an issue's state: an update.
    expect(verbFirst.search('close an issue', 10)).toEqual(['update_issues', 'list_issues', 'list_pulls']);
    expect(verbFirst.search('open a pull request', 1)).toEqual(['create_pulls']);
  });

  it('reads "PR" as pull request and "set up" as create, and drops numbers and commit hashes', () => {
    expect(terms('merge PR 55 at 9f3c2e1, set up a hook')).toEqual(['merg', 'pull', 'request', 'setup', 'hook']);
    // A word without a digit stays a word even when it is made of hex letters.
    expect(terms('add a facade')).toEqual(['add', 'facad']);
    expect(verbFirst.search('list my open PRs', 1)).toEqual(['list_pulls']);
    expect(verbFirst.search('set up a pull request', 1)).toEqual(['create_pulls']);
  });

  it('reads a task without the values it names', () => {
    expect(
      withoutValues(
        "Mark commit d34db33f in octo-org/api as 'ci/lint: ok', tell jane@example.com, bump CHANGELOG.md to v2.1.0",
      ),
    ).toBe('Mark commit d34db33f in   as , tell  email  bump  file  to  ');
    // An apostrophe inside a word is not a quote.
    expect(withoutValues("what's the repo's newest tag")).toBe("what's the repo's newest tag");
    expect(terms(withoutValues('merge PR 12 in facebook/react'))).toEqual(['merg', 'pull', 'request']);
  });

  it('matches "newest", "recent" and "last" with "latest" wherever the task says them', () => {
    const releases = new ToolIndex([
      tool('get_repos_latest_release', 'Gets the latest published full release for the repository.'),
      tool('get_repos_release', 'Gets a release of a repository by its id.'),
    ]);
    expect(releases.search('what is the newest release of this repository', 2)).toEqual([
      'get_repos_latest_release',
      'get_repos_release',
    ]);
    expect(releases.search('the most recent one', 2)).toEqual(['get_repos_latest_release']);
  });

  it('reads a URL, an email address and a file name as the kind of thing they are', () => {
    expect(terms(withoutValues('send push events to https://hooks.example.com/gh'))).toEqual([
      'send',
      'push',
      'event',
      'url',
    ]);
    expect(terms(withoutValues('invite jane@example.com'))).toEqual(['invit', 'email']);
    expect(terms(withoutValues('update CHANGELOG.md on main'))).toEqual(['updat', 'fil', 'main']);
    const kinds = new ToolIndex([
      tool('create_invitation', 'Invites a person to the team.', { properties: { email: { type: 'string' } } }),
      tool('create_member', 'Adds a person to the team.', { properties: { user_id: { type: 'string' } } }),
    ]);
    expect(kinds.search('invite jane@example.com to the team', 2)).toEqual(['create_invitation', 'create_member']);
  });

  it('stems what an action makes as the action: -ion and -ation', () => {
    expect(['invitation', 'invite', 'invited'].map(stem)).toEqual(['invit', 'invit', 'invit']);
    expect(['protection', 'protected', 'deletion', 'delete', 'creation', 'create'].map(stem)).toEqual([
      'protect',
      'protect',
      'delet',
      'delet',
      'creat',
      'creat',
    ]);
    expect(['installation', 'install', 'configuration', 'configure'].map(stem)).toEqual([
      'install',
      'install',
      'configur',
      'configur',
    ]);
    // Short words keep their ending: "action" is no "act", "option" no "opt".
    expect(['action', 'option'].map(stem)).toEqual(['action', 'option']);
  });
});
