/**
 * The one comparator for everything mcp-gen sorts. Byte (UTF-16 code unit)
 * order, never `localeCompare`, whose result depends on the runtime's ICU data
 * and the machine's locale.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A sorted copy of `items`, ordered by `key` with {@link compareText}. */
export function sortBy<T>(items: Iterable<T>, key: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareText(key(a), key(b)));
}
