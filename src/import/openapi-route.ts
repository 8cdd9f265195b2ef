/**
 * Operations whose path key carries a query (`/search?query={query}`): OpenAPI's path keys are paths alone, but
 * published documents write the query into them (medium.com, weatherbit.io, learnifier.com), and a reader
 * understands them. A pair `key={name}` is sent by the parameter `name` in the query, as `key`: one the operation
 * declares there already is, and one it declares `in: path` (which the path has no `{name}` for) is moved there. A
 * literal pair (`?format=json`) stays in the path, and the request sends it as written. Any other pair cannot be
 * filled by a binding: it leaves the path and the import says so. A path parameter found nowhere is left out, and a
 * query parameter whose `{name}` the path has is sent in the path, said too.
 */
import { quote } from './names.js';
import type { ArgumentEntry } from './openapi-request.js';

type Raw = Readonly<Record<string, unknown>>;

/** The route before its `?` (all of it without one), and the `&`-separated pairs of its query. */
export function splitRoute(route: string): { readonly path: string; readonly pairs: readonly string[] } {
  const mark = route.indexOf('?');
  if (mark < 0) return { path: route, pairs: [] };
  return {
    path: route.slice(0, mark),
    pairs: route
      .slice(mark + 1)
      .split('&')
      .filter((pair) => pair !== ''),
  };
}

const templated = /^([^{}=]+)=\{([^{}]+)\}$/;

/** The `{name}`s of the route: those of its path, and those a query pair (`key={name}`) takes its value from. */
export function routeNames(route: string): string[] {
  const { path, pairs } = splitRoute(route);
  const names = [
    ...[...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1] ?? ''),
    ...pairs.map((pair) => templated.exec(pair)?.[2] ?? '').filter((name) => name !== ''),
  ];
  return names.filter((name, i) => names.indexOf(name) === i);
}

/**
 * The parameters as the request sends them: each declared `in: path` whose `{name}` is only in the route's query,
 * as a query parameter named by its pair's key; each declared `in: query` whose `{name}` is in the path and no path
 * parameter's (a URL cannot carry the `{name}` as written), in the path, also listed as `moved`; and those declared
 * `in: path` that the route has no place for.
 */
export function placeParameters(
  route: string,
  params: readonly Raw[],
): { placed: Raw[]; moved: Raw[]; unplaced: Raw[] } {
  const { path, pairs } = splitRoute(route);
  const keys = new Map<string, string>();
  for (const pair of pairs) {
    const match = templated.exec(pair);
    if (match?.[1] !== undefined && match[2] !== undefined && !keys.has(match[2])) keys.set(match[2], match[1]);
  }
  const placed: Raw[] = [];
  const moved: Raw[] = [];
  const unplaced: Raw[] = [];
  const pathNames = new Set(params.filter((p) => p.in === 'path').map((p) => String(p.name)));
  for (const p of params) {
    const name = String(p.name);
    const key = keys.get(name);
    if (p.in === 'query' && path.includes(`{${name}}`) && !pathNames.has(name)) {
      const inPath = { ...p, in: 'path', required: true };
      placed.push(inPath);
      moved.push(inPath);
    } else if (p.in !== 'path' || path.includes(`{${name}}`)) placed.push(p);
    else if (key !== undefined) placed.push({ ...p, in: 'query', name: key });
    else unplaced.push(p);
  }
  return { placed, moved, unplaced };
}

/** The path a binding sends for `route`, and a line for each query pair it cannot send as the document says. */
export function routePath(
  route: string,
  args: ReadonlyMap<string, ArgumentEntry>,
): { readonly path: string; readonly problems: readonly string[] } {
  const { path, pairs } = splitRoute(route);
  if (pairs.length === 0) return { path, problems: [] };
  const queried = new Set<string>();
  for (const [property, entry] of args)
    if (typeof entry === 'string' ? entry === 'query' : entry.in === 'query')
      queried.add(typeof entry !== 'string' && typeof entry.name === 'string' ? entry.name : property);
  const kept: string[] = [];
  const problems: string[] = [];
  for (const pair of pairs) {
    const key = templated.exec(pair)?.[1];
    if (!pair.includes('{') && !pair.includes('}')) kept.push(pair);
    else if (key === undefined || !queried.has(key))
      problems.push(
        `its path carries the query ${quote(pair)}, which no parameter fills; it is left out of the request ` +
          '(write a handler)',
      );
  }
  return { path: kept.length === 0 ? path : `${path}?${kept.join('&')}`, problems };
}
