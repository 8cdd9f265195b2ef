/** Longest server name a draft gets, like every imported name. */
const maxName = 64;

/**
 * A server name the manifest accepts (`^[a-z][a-z0-9-]*$`) made from the one a server reports:
 * `mcp-servers/everything` -> `mcp-servers-everything`. Import names a draft with it; verify matches a
 * server's name with it, so a name import had to change is not drift.
 */
export function serverName(raw: string): string {
  const slug = raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const named = slug === '' ? 'imported-server' : /^[a-z]/.test(slug) ? slug : `server-${slug}`;
  return named.slice(0, maxName).replace(/-+$/, '');
}
