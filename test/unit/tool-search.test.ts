import { describe, expect, it } from 'vitest';
import { type Searchable, ToolIndex } from '../../templates/runtime/search-index.gen.js';
import { stem, terms, withoutValues } from '../../templates/runtime/search-words.gen.js';
import { toolIndex } from '../../templates/runtime/search.gen.js';
import type { RegistrySpec } from '../../templates/runtime/spec.gen.js';

// The ranking of search.gen.ts (discovery: search) on small fixed corpora: BM25F over names split at `_` and case
// changes, titles, tags, descriptions and parameters (a body's fields and enum values too), with verb synonyms and
// concepts at a lower weight and bonuses for the tool whose name says the task's action and object.

const tool = (
  name: string,
  description: string,
  extra: {
    title?: string;
    tags?: string[];
    properties?: Record<string, Record<string, unknown>>;
    $defs?: Record<string, unknown>;
  } = {},
): Searchable => ({
  name,
  listing: { ...(extra.title === undefined ? {} : { title: extra.title }), description, annotations: {} },
  inputSchema: {
    type: 'object',
    properties: extra.properties ?? {},
    ...(extra.$defs === undefined ? {} : { $defs: extra.$defs }),
  },
  tags: extra.tags ?? [],
});

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

  it("reads a body's fields one level down, $ref and anyOf included, and the values an enum allows", () => {
    const bodies = new ToolIndex([
      tool('create_review', 'Creates a review on a change.', {
        properties: {
          body: {
            type: 'object',
            properties: { event: { description: 'What the review does.', enum: ['APPROVE', 'REQUEST_CHANGES'] } },
          },
        },
      }),
      tool('update_project', 'Updates a project.', {
        properties: { body: { $ref: '#/$defs/project' } },
        $defs: {
          project: { properties: { archived: { type: 'boolean', description: 'Whether to archive the project.' } } },
        },
      }),
      tool('update_board', 'Updates a board.', {
        properties: { body: { anyOf: [{ properties: { frozen: { description: 'Whether it is frozen.' } } }] } },
      }),
      // Two levels down is too deep: a field of a field says little about the tool.
      tool('update_card', 'Updates a card.', {
        properties: { body: { properties: { style: { properties: { frozen: { type: 'boolean' } } } } } },
      }),
    ]);
    expect(bodies.search('approve it', 5)).toEqual(['create_review']);
    expect(bodies.search('archive the project', 5)).toEqual(['update_project']);
    expect(bodies.search('frozen', 5)).toEqual(['update_board']);
  });

  it('reads a question as a request to read: get, list or search', () => {
    const questions = new ToolIndex([
      tool('create_branch_protection', 'Protects a branch.'),
      tool('get_branch_protection', 'Gets the protection of a branch.'),
    ]);
    // Without the question, both do what the task names equally well; the name's order decides.
    expect(questions.search('branch protection', 2)).toEqual(['create_branch_protection', 'get_branch_protection']);
    expect(questions.search('is the branch protected?', 2)).toEqual([
      'get_branch_protection',
      'create_branch_protection',
    ]);
    // A question that says its verb is read by that verb.
    expect(questions.search('how do I create a branch protection?', 1)).toEqual(['create_branch_protection']);
  });

  it('reads a name that does two things ("create_or_update") as doing both', () => {
    const secrets = new ToolIndex([
      tool('create_or_update_secret', 'Creates or replaces a secret.'),
      tool('get_secret', 'Gets a secret.'),
      tool('update_secret_visibility', 'Updates the visibility of a secret.'),
    ]);
    expect(secrets.search('set a secret', 3)).toEqual([
      'create_or_update_secret',
      'update_secret_visibility',
      'get_secret',
    ]);
    expect(secrets.search('create a secret', 1)).toEqual(['create_or_update_secret']);
    expect(secrets.search('get a secret', 1)).toEqual(['get_secret']);
  });

  it('ranks the tool whose name is all about what the task names above one about something near it', () => {
    const teams = new ToolIndex([
      tool('list_teams_child_in_org', 'Lists the child teams of a team.', {
        properties: { org: { description: 'The organization.' } },
      }),
      tool('list_teams', 'Lists all teams in an organization.', {
        properties: { org: { description: 'The organization.' } },
      }),
    ]);
    // The child teams' name says "org" as the task does, but also "child", which the task does not ask for.
    expect(teams.search('list the teams of an organization', 2)).toEqual(['list_teams', 'list_teams_child_in_org']);
  });

  it('matches the words of one concept wherever the task says them', () => {
    const concepts = new ToolIndex([
      tool('get_rate_limit', 'Gets the rate limit status of the caller.'),
      tool('list_members', 'Lists the members of a workspace.'),
      tool('delete_ref', 'Deletes a git reference.', { properties: { ref: { description: 'The reference.' } } }),
      tool('delete_branch_protection', 'Removes the protection of a branch.'),
      tool('create_reaction', 'Adds a reaction to a message.'),
      tool('create_message', 'Posts a message.'),
      tool('list_workspaces', 'Lists the workspaces.'),
    ]);
    expect(concepts.search('how many calls do I have left', 5)).toEqual(['get_rate_limit']);
    expect(concepts.search('list everyone in the workspace', 2)).toEqual(['list_members', 'list_workspaces']);
    expect(concepts.search('delete a branch', 2)).toEqual(['delete_ref', 'delete_branch_protection']);
    expect(concepts.search('thumbs up a message', 2)).toEqual(['create_reaction', 'create_message']);
    const access = new ToolIndex([
      tool('add_assignee', 'Adds an assignee.'),
      tool('add_collaborator', 'Adds a collaborator.', { properties: { permission: { description: 'The level.' } } }),
    ]);
    expect(access.search('give someone write access', 2)).toEqual(['add_collaborator', 'add_assignee']);
  });

  it('reads "enable" and "give" as create, "disable" and "revoke" as delete', () => {
    const pages = new ToolIndex([
      tool('build_pages_site', 'Builds a Pages site.'),
      tool('create_pages_site', 'Configures a Pages site.'),
      tool('delete_pages_site', 'Deletes a Pages site.'),
    ]);
    expect(pages.search('enable pages', 1)).toEqual(['create_pages_site']);
    expect(pages.search('disable pages', 1)).toEqual(['delete_pages_site']);
  });

  it('reads the fields a tool answers with, and what follows "named" or "called" as a value', () => {
    const users = new ToolIndex([
      { ...tool('get_user', 'Gets a user.'), outputSchema: { type: 'object', properties: { bio: {}, location: {} } } },
      {
        ...tool('list_followers', 'Lists the followers of a user.'),
        outputSchema: { type: 'object', properties: { result: { type: 'array', items: { $ref: '#/$defs/user' } } } },
      },
      tool('get_profile_settings', 'Gets the settings of a profile and its location.'),
    ]);
    expect(users.search("what's the bio and location of octocat", 1)).toEqual(['get_user']);
    const repos = new ToolIndex([
      tool('create_repo', 'Creates a repository.'),
      tool('create_billing_report', 'Creates a billing report.'),
    ]);
    expect(repos.search('create a repository named billing-reports', 1)).toEqual(['create_repo']);
    expect(repos.search("create a repository called 'billing reports'", 1)).toEqual(['create_repo']);
  });

  it('counts the parameter a task names as a passage of its own, however many parameters a tool has', () => {
    const many = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`setting_${i}`, { description: `Setting number ${i} of the thing.` }]),
    );
    const index = new ToolIndex([
      tool('update_repo', 'Updates a repository.', {
        properties: { ...many, archived: { type: 'boolean', description: 'Whether to archive the repository.' } },
      }),
      tool('download_archive', 'Downloads an archive of a repository as a tarball.'),
    ]);
    expect(index.search('archive the repository', 2)).toContain('update_repo');
  });

  it('reads a yes-or-no question as asking to check too, and "-ship" as the thing it is of', () => {
    expect(['membership', 'ownership', 'member'].map(stem)).toEqual(['member', 'owner', 'member']);
    const members = new ToolIndex([
      tool('update_membership', 'Updates the role of a member of an organization.'),
      tool('check_membership', 'Checks if a user is a member of an organization.'),
      tool('remove_member', 'Removes a member from an organization.'),
    ]);
    expect(members.search('is dkumar a member of the apache org?', 1)).toEqual(['check_membership']);
    expect(members.search('dkumar is a member of the apache org', 1)).not.toEqual(['check_membership']);
  });

  it('reads words and names that are also members of every JavaScript object as plain words', () => {
    // "constructor" once found the short forms' Object.prototype.constructor: every task or tool saying it threw.
    expect(terms('the constructor of hasOwnProperty toString')).toEqual(['constructor', 'own', 'property', 'str']);
    const racing = new ToolIndex([
      tool('get_constructor', 'Get one racing constructor (a team) by its id.'),
      tool('list_drivers', 'List the drivers of a season.'),
    ]);
    expect(racing.search('what is the constructor of this car?', 5)).toEqual(['get_constructor']);
    // A tool named like an Object member, with no tags of its own, is indexed with none (not the member).
    const registry = {
      tools: [tool('constructor', 'Get one racing team.'), tool('toString', 'Show standings.')].map((t) => ({
        ...t,
        outputSchema: null,
      })),
      search: { surface: [], tags: { toString: ['standings'] } },
    } as unknown as RegistrySpec;
    const named = toolIndex(registry, new Set(['constructor', 'toString']));
    expect(named.search('racing team', 5)).toEqual(['constructor']);
    expect(named.search('standings', 5)).toEqual(['toString']);
  });
});
