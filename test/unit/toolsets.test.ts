import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registryData } from '../../src/emit/registry/data.js';
import { contextSection } from '../../src/emit/report/view-context.js';
import { globPattern, toolsetMembers } from '../../src/model/tool-selection.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { reviewModel } from '../../src/review/index.js';
import { repoRoot } from '../support/golden.js';
import { validated } from '../support/manifests.js';

const fixture = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'runtime', 'toolsets.yaml'), 'utf8');

describe('name globs', () => {
  it('anchor the whole name; * is any run, ? one character, every other character itself', () => {
    const glob = (text: string) => globPattern(text)?.source ?? null;
    expect(glob('list_*')).toBe('^list_.*$');
    expect(glob('v?.get-*')).toBe('^v.\\.get\\-.*$');
    expect(['list_', 'list_repos', 'a_list_repos'].map((n) => globPattern('list_*')?.test(n))).toEqual([
      true,
      true,
      false,
    ]);
    expect(['v2.get', 'v22.get', 'v2xget'].map((n) => globPattern('v?.get')?.test(n))).toEqual([true, false, false]);
    expect(['list_[ab]', 'a{b,c}', 'a/b', 'a b', ''].map(globPattern)).toEqual([null, null, null, null, null]);
  });
});

describe('toolset membership', () => {
  const tools = [
    { name: 'list_issues', tags: ['issues'], annotations: { readOnlyHint: true } },
    { name: 'create_issue', tags: ['issues'], annotations: { destructiveHint: false } },
    { name: 'delete_repo', annotations: {} },
    { name: 'list_repos', annotations: { readOnlyHint: true, openWorldHint: false } },
  ];
  it('unites tools, tags and names, then filters by the hints after MCP defaults', () => {
    expect(toolsetMembers({ tools: ['delete_repo'], tags: ['issues'] }, tools)).toEqual([
      'list_issues',
      'create_issue',
      'delete_repo',
    ]);
    expect(toolsetMembers({ names: ['*_repo*'] }, tools)).toEqual(['delete_repo', 'list_repos']);
    // Only a filter: it chooses among every tool. delete_repo is destructive by MCP's default.
    expect(toolsetMembers({ annotations: { destructiveHint: true } }, tools)).toEqual(['delete_repo']);
    expect(toolsetMembers({ annotations: { openWorldHint: true } }, tools)).toEqual([
      'list_issues',
      'create_issue',
      'delete_repo',
    ]);
    expect(toolsetMembers({ tags: ['issues'], annotations: { readOnlyHint: false } }, tools)).toEqual(['create_issue']);
  });
});

describe('toolsets in the model, the registry and the review', () => {
  const model = normalizeManifest(validated(fixture));
  it('records every toolset with its tools, and every tool with its toolsets', () => {
    expect(model.toolsets).toEqual([
      {
        name: 'issues',
        description: 'Read and file issues.',
        default: true,
        tools: ['create_issue', 'list_issues'],
        pointer: '/toolsets/issues',
      },
      {
        name: 'repos',
        description: 'Browse repositories.',
        default: false,
        tools: ['list_repos'],
        pointer: '/toolsets/repos',
      },
      {
        name: 'writes',
        description: 'Every tool that changes data.',
        default: false,
        tools: ['create_issue'],
        pointer: '/toolsets/writes',
      },
    ]);
    expect(model.tools.map((t) => [t.name, t.tags, t.toolsets])).toEqual([
      ['create_issue', ['issues'], ['issues', 'writes']],
      ['list_issues', ['issues'], ['issues']],
      ['list_repos', [], ['repos']],
      ['whoami', [], []],
    ]);
  });

  it('gives the runtime the variables and the default selection', () => {
    const registry = registryData(model);
    expect(registry.selection).toEqual({
      toolsetsEnv: 'ISSUE_DESK_TOOLSETS',
      readOnlyEnv: 'ISSUE_DESK_READ_ONLY',
      toolsets: [
        { name: 'issues', default: true },
        { name: 'repos', default: false },
        { name: 'writes', default: false },
      ],
    });
    expect(registry.tools.map((t) => t.toolsets)).toEqual([['issues', 'writes'], ['issues'], ['repos'], []]);
    const unmarked = normalizeManifest(validated(fixture.replace('default: true, ', '')));
    expect(registryData(unmarked).selection.toolsets.map((t) => t.default)).toEqual([true, true, true]);
  });

  it('costs the default surface (default toolsets and the tools in none) and each toolset', () => {
    const review = reviewModel(model, []);
    expect(review.context.listed).toEqual(['create_issue', 'list_issues', 'whoami']);
    const cost = (names: string[]) => {
      const tools = review.context.tools.filter((t) => names.includes(t.name));
      const bytes = 12 + tools.length - 1 + tools.reduce((sum, t) => sum + t.bytes, 0);
      return { bytes, tokens: Math.ceil(bytes / 4) };
    };
    expect(review.cost).toEqual(cost(['create_issue', 'list_issues', 'whoami']));
    expect(review.context.toolsets).toEqual([
      { name: 'issues', default: true, count: 2, ...cost(['create_issue', 'list_issues']) },
      { name: 'repos', default: false, count: 1, ...cost(['list_repos']) },
      { name: 'writes', default: false, count: 1, ...cost(['create_issue']) },
    ]);
    expect(review.gate.find((g) => g.id === 'R5')?.reason).toBe(
      `4 tool(s) in 3 toolset(s), 3 listed by default, within lint.maxTools (20); the default tools/list costs about ` +
        `${review.cost.tokens} tokens, within review.maxListTokens (20000)`,
    );
  });

  it('tells DESIGN.md readers both ways an HTTP request narrows: the header and the URL path', () => {
    expect(contextSection(model, reviewModel(model, [])).selection).toBe(
      'A deployment chooses toolsets with `ISSUE_DESK_TOOLSETS` (names separated by commas, or `all`); without it, ' +
        '`issues` (3 tools). 1 tool is in no toolset and always listed. `ISSUE_DESK_READ_ONLY=1` lists and serves ' +
        'only the read-only tools (3 of 4). Over HTTP a request may narrow the selection with the header ' +
        '`Mcp-Toolsets` (names separated by commas) or, for a host that takes only a URL, the path ' +
        '`/mcp/x/<names>`; a tool outside the selection is unknown.',
    );
    const stdio = normalizeManifest(
      validated(fixture.replace('  http: { host: 127.0.0.1, port: 3000, path: /mcp }\n', '')),
    );
    expect(contextSection(stdio, reviewModel(stdio, [])).selection).toContain(
      '`Mcp-Toolsets` (names separated by commas); a tool',
    );
  });

  it('lets a design pass its budget by listing a small default toolset', () => {
    const budget = 'review: { maxListTokens: 160 }\n';
    const tight = fixture.replace('toolsets:\n', `${budget}toolsets:\n`);
    expect(reviewModel(normalizeManifest(validated(tight)), []).failed).toBe(true);
    const small = tight
      .replace('default: true, tags: [issues]', 'tags: [issues]')
      .replace(
        "description: Browse repositories., names: ['*_repos']",
        "description: Browse repositories., default: true, names: ['*_repos']",
      );
    const review = reviewModel(normalizeManifest(validated(small)), []);
    expect(review.context.listed).toEqual(['list_repos', 'whoami']);
    expect(review.failed).toBe(false);
  });
});
