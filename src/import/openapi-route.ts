/**
 * The `http.path` of an operation whose path key carries a query (`/search?query={query}`): OpenAPI's path keys
 * are paths alone, but some published documents write the query into them, and a reader understands them. A pair
 * `name={name}` whose query parameter the operation declares is sent by that parameter, so it leaves the path; a
 * literal pair (`?format=json`) stays, and the request sends it as written; any other placeholder in the query
 * cannot be filled by a binding, so it leaves the path and the import says so.
 */
import { quote } from './names.js';
import type { ArgumentEntry } from './openapi-request.js';

/** The path a binding sends for `route`, and a line for each query pair it cannot send as the document says. */
export function routePath(
  route: string,
  args: ReadonlyMap<string, ArgumentEntry>,
): { readonly path: string; readonly problems: readonly string[] } {
  const mark = route.indexOf('?');
  if (mark < 0) return { path: route, problems: [] };
  const declared = new Set<string>();
  for (const [property, entry] of args) {
    const location = typeof entry === 'string' ? entry : entry.in;
    const wire = typeof entry === 'string' ? property : typeof entry.name === 'string' ? entry.name : property;
    if (location === 'query') declared.add(wire);
  }
  const kept: string[] = [];
  const problems: string[] = [];
  for (const pair of route.slice(mark + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals < 0 ? pair : pair.slice(0, equals);
    const value = equals < 0 ? '' : pair.slice(equals + 1);
    const placeholder = /^\{([^{}]+)\}$/.exec(value)?.[1];
    if (!pair.includes('{') && !pair.includes('}')) kept.push(pair);
    else if (placeholder === key && declared.has(key)) continue;
    else
      problems.push(
        `its path carries the query ${quote(pair)}, which no query parameter named ${quote(key)} fills; ` +
          'it is left out of the request (write a handler)',
      );
  }
  const path = route.slice(0, mark);
  return { path: kept.length === 0 ? path : `${path}?${kept.join('&')}`, problems };
}
