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
