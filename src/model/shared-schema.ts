/**
 * References to the manifest's shared schemas (`schemas:`): `$ref: '#/schemas/<name>'` in a tool schema or in
 * another shared schema. Names are wire names (`A-Z a-z 0-9 _ . -`), so a reference needs no pointer escapes.
 */
import { walkSchema } from './schema-walk.js';

/** How a reference to a shared schema starts. */
export const sharedRefPrefix = '#/schemas/';

/** The shared schema a `$ref` names, or null when it is some other reference. */
export function sharedRefName(ref: unknown): string | null {
  if (typeof ref !== 'string' || !ref.startsWith(sharedRefPrefix)) return null;
  const name = ref.slice(sharedRefPrefix.length);
  return name === '' || name.includes('/') ? null : name;
}

/** The shared schemas `schema` names directly, each once, in the order first met. */
export function sharedRefsOf(schema: unknown): string[] {
  const names = new Set<string>();
  walkSchema(schema, (node) => {
    const name = sharedRefName(node.$ref);
    if (name !== null) names.add(name);
  });
  return [...names];
}

/**
 * Every shared schema reachable from `roots` through `refsOf` (the direct references of one shared schema),
 * each once, cycles included; a name `refsOf` does not know is skipped (validate reports it).
 */
export function sharedClosure(
  roots: Iterable<string>,
  refsOf: (name: string) => readonly string[] | undefined,
): string[] {
  const found = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (found.has(name)) continue;
    const refs = refsOf(name);
    if (refs === undefined) continue;
    found.add(name);
    queue.push(...refs);
  }
  return [...found];
}
