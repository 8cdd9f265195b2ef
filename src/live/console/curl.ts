/**
 * "Copy as curl" for a console request: the one HTTP request of protocol 2026-07-28 that does the same, with its
 * headers (`Mcp-Method`, `Mcp-Name`) and the `_meta` envelope. The client declares no elicitation, so a call that
 * needs approval answers with the approval page's link instead of a form. A bearer token is never written out: the
 * command reads it from `$MCP_TOKEN`.
 */
import { protocolVersion } from '../../model/defaults.js';

/** One word for a POSIX shell: single-quoted, with each quote closed, escaped and reopened. */
export function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The curl command of `method` with `params` against `url`; `bearer` adds an Authorization header from the shell. */
export function curlOf(
  url: string,
  method: string,
  params: Readonly<Record<string, unknown>>,
  bearer: boolean,
): string {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : null;
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': protocolVersion,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const headers = [
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    `mcp-protocol-version: ${protocolVersion}`,
    `mcp-method: ${method}`,
    ...(name === null ? [] : [`mcp-name: ${name}`]),
  ];
  const lines = [
    `curl -sS ${shellWord(url)}`,
    ...headers.map((header) => `-H ${shellWord(header)}`),
    // Double quotes so the shell expands the variable; the token never appears in the command.
    ...(bearer ? ['-H "authorization: Bearer $MCP_TOKEN"'] : []),
    `--data-raw ${shellWord(JSON.stringify(body))}`,
  ];
  return lines.join(' \\\n  ');
}
