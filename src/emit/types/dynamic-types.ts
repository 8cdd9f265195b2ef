import type { ServerModel } from '../../model/types.js';
import { key, singleQuoted } from '../shared/literal.js';
import { documented } from '../shared/ts-text.js';

/** `'a' | 'b'`, or `never` for none. */
const union = (names: readonly string[]): string =>
  names.length === 0 ? 'never' : names.map((n) => singleQuoted(n)).join(' | ');

/** `{ name: { argument: ...; names: ... }; }` per completed resource or prompt, `{}` without. */
function completionMap(entries: readonly (readonly [string, readonly string[], readonly string[]])[]): string {
  if (entries.length === 0) return '{}';
  const lines = entries.map(
    ([name, completed, all]) => `  ${key(name)}: { argument: ${union(completed)}; names: ${union(all)} };`,
  );
  return `{\n${lines.join('\n')}\n}`;
}

/** The signature of a completion handler over the map `map` (a name missing from it takes `never`, as orphans do). */
function completeHandler(map: string): string {
  return (
    `N extends keyof ${map} ? (request: { readonly argument: ${map}[N]['argument']; readonly value: string; ` +
    `readonly context: Readonly<Partial<Record<${map}[N]['names'], string>>> }, ctx: ToolContext) => ` +
    'Promise<CompletionReply> : (request: never, ctx: ToolContext) => Promise<CompletionReply>'
  );
}

/**
 * The types of list and completion handlers (manifest `list: handler`, `complete: handler`), always declared so that
 * a handler file whose entry left the manifest still compiles.
 */
export function dynamicTypeStatements(model: ServerModel): string[] {
  const alias = (name: string, type: string, doc: string, generic = false): string =>
    documented(doc, `export type ${name}${generic ? '<N extends string>' : ''} = ${type};`);
  const resources = model.resources.flatMap((r) =>
    r.complete === null ? [] : [[r.name, r.complete.variables, r.variables.map((v) => v.name)] as const],
  );
  const prompts = model.prompts.flatMap((p) =>
    p.complete === null ? [] : [[p.name, p.complete.arguments, p.arguments.map((a) => a.name)] as const],
  );
  const listed = model.resources.filter((r) => r.list !== null).map((r) => r.name);
  return [
    alias('ResourceListName', union(listed), 'Every resource whose members a list handler returns (`list: handler`).'),
    alias(
      'ResourceListHandler',
      '(request: ListRequest, ctx: ToolContext) => Promise<ListPage>',
      'The list handler of resource `N`: one page of its members from `request.cursor`, in order.',
      true,
    ),
    alias(
      'ResourceListHandlers',
      '{ readonly [N in ResourceListName]: ResourceListHandler<N> }',
      'One per listed resource.',
    ),
    alias(
      'ResourceCompletions',
      completionMap(resources),
      'Per resource with `complete`: the variables its handler completes (`argument`) and all its variables.',
    ),
    alias(
      'ResourceCompleteHandler',
      completeHandler('ResourceCompletions'),
      'The completion handler of resource `N`.',
      true,
    ),
    alias(
      'ResourceCompleteHandlers',
      '{ readonly [N in keyof ResourceCompletions]: ResourceCompleteHandler<N> }',
      'One per resource with `complete`.',
    ),
    alias(
      'PromptCompletions',
      completionMap(prompts),
      'Per prompt with `complete: handler` arguments: those (`argument`) and all its arguments.',
    ),
    alias('PromptCompleteHandler', completeHandler('PromptCompletions'), 'The completion handler of prompt `N`.', true),
    alias(
      'PromptCompleteHandlers',
      '{ readonly [N in keyof PromptCompletions]: PromptCompleteHandler<N> }',
      'One per prompt with `complete: handler` arguments.',
    ),
  ];
}
