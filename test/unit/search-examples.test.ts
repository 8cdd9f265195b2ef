import { describe, expect, it } from 'vitest';
import { searchExamples } from '../../src/model/search-examples.js';

// The example tasks of search_tools come from the server's own tools: one that makes something and one that reads,
// the shortest of each (ties by name), as a model would type them.

const tool = (name: string, title: string | null = null) => ({ name, title });

describe('searchExamples', () => {
  it('takes the shortest title of the first verb that creates and of the first that reads', () => {
    expect(
      searchExamples([
        tool('create_issues', 'Create an issue'),
        tool('create_gists', 'Create a gist.'),
        tool('list_repos', 'List repositories'),
        tool('get_emojis', 'Get emojis'),
        tool('delete_repo', 'Delete'),
        tool('add_x', 'Add x'),
      ]),
    ).toEqual(['create a gist', 'list repositories']);
  });

  it('reads a name without a title, skips long titles, and fills in with the shortest of the rest', () => {
    expect(
      searchExamples([
        tool('add_label'),
        tool('list_everything_the_server_has', 'List every single thing this server has ever been told about'),
        tool('archive_project', 'Archive a project'),
        tool('merge_pull', 'Merge a pull request'),
      ]),
    ).toEqual(['add label', 'archive a project']);
  });

  it('gives none for a server without tools, and one for a server with one', () => {
    expect(searchExamples([])).toEqual([]);
    expect(searchExamples([tool('ping', 'Ping')])).toEqual(['ping']);
  });
});
