/**
 * Writes JSON data as a TypeScript expression. Every string goes through
 * JSON.stringify, so user text (quotes, backslashes, `*\/`, backticks, `${}`,
 * newlines, any Unicode) can never become code.
 */

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `name` as an object key: bare when it is an identifier, quoted otherwise. */
export function key(name: string): string {
  return identifier.test(name) ? name : JSON.stringify(name);
}

/** `text` as a single-quoted TypeScript string literal, escaped by JSON.stringify's rules. */
export function singleQuoted(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/**
 * `value` as a TypeScript literal, indented for a position at `indent` spaces. An object found in `names` (by
 * identity) is written as that identifier instead: shared schemas are declared once and named from every use.
 */
export function toLiteral(value: unknown, indent = 0, names?: ReadonlyMap<object, string>): string {
  const pad = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return JSON.stringify(value);
  const named = names?.get(value as object);
  if (named !== undefined) return named;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${pad}${toLiteral(item, indent + 2, names)},`).join('\n')}\n${close}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([k, v]) => `${pad}${key(k)}: ${toLiteral(v, indent + 2, names)},`);
    return `{\n${lines.join('\n')}\n${close}}`;
  }
  throw new TypeError(`cannot write ${typeof value} as a literal`);
}
