import { templateVariables } from '../../model/uri-template.js';
import { entriesOf, isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

const scheme = '[A-Za-z][A-Za-z0-9+.-]*:';
// RFC 3986 characters (unreserved, reserved, percent); no spaces, braces or quotes.
const uriPattern = new RegExp(`^${scheme}[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=%]+$`);
// RFC 6570: literals, and expressions with an optional operator and varspecs (`name`, `name*`, `name:3`).
const varspec = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\\*)?';
const expression = `\\{[+#./;?&]?${varspec}(?:,${varspec})*\\}`;
const literal = "[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=%]";
const templatePattern = new RegExp(`^${scheme}(?:${literal}|${expression})*$`);

/** True when `text` is an RFC 6570 template with a scheme and at least one expression. */
export function isUriTemplate(text: string): boolean {
  return templatePattern.test(text) && /\{/.test(text);
}

/** Each resource has exactly one well-formed `uri` or `uriTemplate`, and no two share one. */
export function checkResources(ctx: RuleContext): void {
  const seen = new Map<string, string>();
  for (const [name, resource] of entriesOf(isRecord(ctx.data) ? ctx.data.resources : undefined)) {
    if (!isRecord(resource)) continue;
    const uri = stringOr(resource.uri);
    const template = stringOr(resource.uriTemplate);
    const base = ['resources', name];
    if ((uri === undefined) === (template === undefined)) {
      const found = uri === undefined ? 'neither "uri" nor "uriTemplate"' : 'both "uri" and "uriTemplate"';
      ctx.report(
        'resource-uri-choice',
        uri === undefined ? base : [...base, 'uriTemplate'],
        `resource "${name}" has ${found}`,
        'use "uri" for one fixed resource, "uriTemplate" for a family of resources',
        'key',
      );
    }
    if (uri !== undefined && !uriPattern.test(uri)) {
      const hint = /[{}]/.test(uri)
        ? 'a URI with {variables} belongs under "uriTemplate"'
        : 'write an absolute URI with a scheme, e.g. "notes://style-guide"';
      ctx.report('uri-malformed', [...base, 'uri'], `resource "${name}" uri "${uri}" is not an absolute URI`, hint);
    }
    if (template !== undefined && !isUriTemplate(template)) {
      const hint = !/\{/.test(template)
        ? 'a template needs at least one {variable}; use "uri" for a fixed resource'
        : 'balance the braces and name variables with letters, digits and "_", e.g. "notes://notes/{id}"';
      ctx.report(
        'uri-template-malformed',
        [...base, 'uriTemplate'],
        `resource "${name}" uriTemplate "${template}" is not a valid RFC 6570 template with a scheme`,
        hint,
      );
    }
    checkCompletions(ctx, name, resource.completions, template);
    const key = uri ?? template;
    if (key === undefined) continue;
    const first = seen.get(key);
    if (first !== undefined) {
      ctx.report(
        'resource-uri-duplicate',
        [...base, uri !== undefined ? 'uri' : 'uriTemplate'],
        `resources "${first}" and "${name}" both use "${key}"`,
        'give each resource its own URI',
      );
    } else {
      seen.set(key, name);
    }
  }
}

/** `completions` keys must name variables of the resource's `uriTemplate`. */
function checkCompletions(ctx: RuleContext, name: string, completions: unknown, template: string | undefined): void {
  if (!isRecord(completions)) return;
  const variables = template === undefined ? [] : templateVariables(template).map((v) => v.name);
  for (const variable of Object.keys(completions)) {
    if (variables.includes(variable)) continue;
    const hint =
      template === undefined
        ? 'completions apply to the {variables} of a uriTemplate; a fixed uri has none'
        : `the template's variables are ${variables.map((v) => `"${v}"`).join(', ') || 'none'}`;
    ctx.report(
      'completion-unknown-variable',
      ['resources', name, 'completions', variable],
      `resource "${name}" offers completions for "${variable}", which is not a variable of its uriTemplate`,
      hint,
      'key',
    );
  }
}
