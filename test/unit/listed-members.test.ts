import { describe, expect, it } from 'vitest';
import { splitListedMembers } from '../../src/model/listed-members.js';
import { matchesUriTemplate } from '../../src/model/uri-template.js';

// import server and verify tell the members of a listed template from fixed resources by the template alone.

describe('matchesUriTemplate', () => {
  it.each([
    ['notes://notes/{id}', 'notes://notes/welcome', true],
    ['notes://notes/{id}', 'notes://notes/a/b', false],
    ['notes://notes/{id}', 'notes://style-guide', false],
    ['notes://notes/{id}', 'notes://notes/', false],
    ['file:///{+path}', 'file:///a/b/c.txt', true],
    ['file:///{path*}', 'file:///a/b', true],
    ['search://q{?term,page}', 'search://q?term=x&page=2', true],
    ['search://q{?term,page}', 'search://q', true],
    ['a.b://x/{id}', 'aXb://x/1', false],
  ])('%s ~ %s: %s', (template, uri, expected) => {
    expect(matchesUriTemplate(template, uri)).toBe(expected);
  });
});

describe('splitListedMembers', () => {
  it('keeps fixed resources in order and counts the members per template', () => {
    const resources = [
      { uri: 'notes://notes/welcome', name: 'welcome' },
      { uri: 'notes://style-guide', name: 'style_guide' },
      { uri: 'notes://notes/nope', name: 'nope' },
      { name: 'no-uri' },
    ];
    const templates = [{ uriTemplate: 'notes://notes/{id}' }, { uriTemplate: 'other://{x}' }, { name: 'bad' }];
    const split = splitListedMembers(resources, templates);
    expect(split.fixed).toEqual([{ uri: 'notes://style-guide', name: 'style_guide' }, { name: 'no-uri' }]);
    expect([...split.members]).toEqual([['notes://notes/{id}', 2]]);
  });
});
