import { templateVariables } from '../../model/uri-template.js';
import { entriesOf, isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

/**
 * Lists and completions from handlers: `list: handler` needs a `uriTemplate` (the listed URIs are checked against
 * it), `complete` names template variables, and one variable or argument completes either from `completions` or
 * from the handler, not both.
 */
export function checkDynamicContent(ctx: RuleContext): void {
  const data = isRecord(ctx.data) ? ctx.data : {};
  for (const [name, resource] of entriesOf(data.resources)) {
    if (!isRecord(resource)) continue;
    const template = stringOr(resource.uriTemplate);
    if (resource.list !== undefined && template === undefined)
      ctx.report(
        'resource-list-fixed',
        ['resources', name, 'list'],
        `resource "${name}" has "list" but a fixed uri: there is nothing to list`,
        'give the family a "uriTemplate" (e.g. "notes://notes/{id}") and list its members, or drop "list"',
        'key',
      );
    const variables = template === undefined ? [] : templateVariables(template).map((v) => v.name);
    const fixed = isRecord(resource.completions) ? resource.completions : {};
    for (const [variable] of entriesOf(resource.complete)) {
      const path = ['resources', name, 'complete', variable];
      if (!variables.includes(variable))
        ctx.report(
          'completion-unknown-variable',
          path,
          `resource "${name}" completes "${variable}" from a handler, which is not a variable of its uriTemplate`,
          template === undefined
            ? 'completions apply to the {variables} of a uriTemplate; a fixed uri has none'
            : `the template's variables are ${variables.map((v) => `"${v}"`).join(', ') || 'none'}`,
          'key',
        );
      else if (variable in fixed) reportBoth(ctx, path, `variable "${variable}" of resource "${name}"`);
    }
  }
  for (const [name, prompt] of entriesOf(data.prompts)) {
    if (!isRecord(prompt)) continue;
    for (const [arg, spec] of entriesOf(prompt.arguments))
      if (isRecord(spec) && spec.complete !== undefined && spec.completions !== undefined)
        reportBoth(ctx, ['prompts', name, 'arguments', arg, 'complete'], `argument "${arg}" of prompt "${name}"`);
  }
}

function reportBoth(ctx: RuleContext, path: readonly string[], what: string): void {
  ctx.report(
    'completion-choice',
    path,
    `${what} has both fixed "completions" and "complete: handler"`,
    'keep one: the fixed values, or the handler (which can return them as well)',
    'key',
  );
}
