import { matchesUriTemplate } from './uri-template.js';

/** An item of a live server's list, as src/live reads it (a plain JSON object). */
type WireItem = Readonly<Record<string, unknown>>;

/**
 * Splits `resources/list` into fixed resources and members of a template (a URI that one of the server's
 * `uriTemplate`s matches): a server whose handler lists a family (`notes://notes/{id}`) lists its members
 * beside its fixed resources, and the draft declares those as `list: handler` on the template instead of
 * freezing today's members as fixed entries. Returns the fixed ones and, per template, how many it listed.
 */
export function splitListedMembers(
  resources: readonly WireItem[],
  templates: readonly WireItem[],
): { fixed: WireItem[]; members: Map<string, number> } {
  const owners = templates.map((t) => t.uriTemplate).filter((t): t is string => typeof t === 'string');
  const members = new Map<string, number>();
  const fixed: WireItem[] = [];
  for (const resource of resources) {
    const uri = resource.uri;
    const owner = typeof uri === 'string' ? owners.find((t) => matchesUriTemplate(t, uri)) : undefined;
    if (owner === undefined) fixed.push(resource);
    else members.set(owner, (members.get(owner) ?? 0) + 1);
  }
  return { fixed, members };
}
