import { searchToolNames } from '../../model/search.js';
import { type DeclaredHints, globPattern, type SelectableTool, toolsetMembers } from '../../model/tool-selection.js';
import { entriesOf, isRecord } from '../../util/guards.js';
import { suggestClosest } from '../../util/suggest.js';
import type { RuleContext } from '../context.js';

/** Strings of a list the shape check may not have passed yet. */
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * Every toolset names existing tools and tags, writes globs it can match with, and selects at least one tool; with
 * discovery: search, no tool takes a name of the search surface.
 */
export function checkToolsets(ctx: RuleContext): void {
  const data = isRecord(ctx.data) ? ctx.data : {};
  const tools: SelectableTool[] = entriesOf(data.tools).map(([name, tool]) => ({
    name,
    tags: isRecord(tool) ? strings(tool.tags) : [],
    annotations: isRecord(tool) && isRecord(tool.annotations) ? (tool.annotations as DeclaredHints) : {},
  }));
  const names = tools.map((t) => t.name);
  // discovery: search registers search_tools and call_tool beside the tools: a tool may not take either name.
  for (const name of data.discovery === 'search' ? searchToolNames : [])
    if (names.includes(name))
      ctx.report(
        'discovery-name-taken',
        ['tools', name],
        `tool "${name}" has the name of a tool that discovery: search adds`,
        'rename the tool (add renamedFrom to keep its handler), or remove discovery: search',
        'key',
      );
  const tags = [...new Set(tools.flatMap((t) => t.tags ?? []))];
  for (const [toolset, rules] of entriesOf(data.toolsets)) {
    if (!isRecord(rules)) continue;
    let reported = false;
    const unknown = (key: 'tools' | 'tags', known: readonly string[], what: string) =>
      strings(rules[key]).forEach((name, i) => {
        if (known.includes(name)) return;
        reported = true;
        const guess = suggestClosest(name, known);
        ctx.report(
          'toolset-unknown-tool',
          ['toolsets', toolset, key, i],
          `toolset "${toolset}" names ${what} "${name}", which ${key === 'tools' ? 'is not a tool' : 'no tool has'}`,
          guess === undefined ? `declare it, or remove it from toolsets.${toolset}.${key}` : `did you mean "${guess}"?`,
        );
      });
    unknown('tools', names, 'tool');
    unknown('tags', tags, 'tag');
    strings(rules.names).forEach((glob, i) => {
      if (globPattern(glob) !== null) return;
      reported = true;
      ctx.report(
        'toolset-glob-invalid',
        ['toolsets', toolset, 'names', i],
        `toolset "${toolset}" has the name glob "${glob}", which uses a character no tool name has`,
        'use letters, digits, "_", "-", "." and the wildcards "*" (any run) and "?" (one character)',
      );
    });
    const members = toolsetMembers(
      {
        tools: Array.isArray(rules.tools) ? strings(rules.tools) : undefined,
        tags: Array.isArray(rules.tags) ? strings(rules.tags) : undefined,
        names: Array.isArray(rules.names) ? strings(rules.names) : undefined,
        annotations: isRecord(rules.annotations) ? (rules.annotations as DeclaredHints) : {},
      },
      tools,
    );
    if (!reported && members.length === 0)
      ctx.report(
        'toolset-empty',
        ['toolsets', toolset],
        `toolset "${toolset}" selects no tool`,
        'check its tools, tags, names and annotations, or remove it',
        'key',
      );
  }
}
