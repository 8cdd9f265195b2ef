/** Variables of an RFC 6570 template, each once, in order of first appearance; `{path*}` is exploded. */
export function templateVariables(template: string): { name: string; exploded: boolean }[] {
  const seen = new Map<string, boolean>();
  for (const match of template.matchAll(/\{[+#./;?&]?([^{}]*)\}/g)) {
    for (const spec of (match[1] ?? '').split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '');
      if (name !== '' && !seen.has(name)) seen.set(name, spec.endsWith('*'));
    }
  }
  return [...seen].map(([name, exploded]) => ({ name, exploded }));
}

/**
 * Whether `uri` could come from `template`: simple `{var}` expressions match one path segment (no `/`),
 * reserved and fragment ones (`{+var}`, `{#var}`) and exploded ones (`{var*}`) any text, and query or
 * path-style ones (`{?q}`, `{;p}`, `{/p}`, `{.x}`, `{&q}`) are optional. Enough to tell the members of a
 * listed family (`notes://notes/{id}`) from fixed resources; it does not decode values.
 */
export function matchesUriTemplate(template: string, uri: string): boolean {
  let pattern = '';
  let last = 0;
  for (const match of template.matchAll(/\{([+#./;?&]?)([^{}]*)\}/g)) {
    pattern += escapeRegExp(template.slice(last, match.index));
    const operator = match[1] ?? '';
    const exploded = (match[2] ?? '').includes('*');
    if (operator === '') pattern += exploded ? '.+' : '[^/?#]+';
    else if (operator === '+' || operator === '#') pattern += operator === '#' ? '(?:#.*)?' : '.+';
    else pattern += '(?:[./;?&].*)?';
    last = match.index + match[0].length;
  }
  pattern += escapeRegExp(template.slice(last));
  return new RegExp(`^${pattern}$`, 'u').test(uri);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`);
}
