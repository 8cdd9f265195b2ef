import { readFileSync } from 'node:fs';

/** mcp-gen's own version, read once from its package.json. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
