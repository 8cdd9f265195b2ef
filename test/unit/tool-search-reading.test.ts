import { describe, expect, it } from 'vitest';
import { ToolIndex } from '../../templates/runtime/search-index.gen.js';
import { stem, terms } from '../../templates/runtime/search-words.gen.js';
import { toolIndex } from '../../templates/runtime/search.gen.js';
import type { RegistrySpec } from '../../templates/runtime/spec.gen.js';
import { tool } from './tool-search-support.js';

// The ranking of search.gen.ts, continued (tool-search.test.ts): what it reads in a tool (a body's fields, the fields
// it answers with, names that do two things) and in a task (questions, concepts, the parameter a task names).

describe('tool search ranking: what a tool and a task say', () => {
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
