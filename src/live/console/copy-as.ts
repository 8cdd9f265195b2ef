/**
 * "Copy as" for a console request. As curl: the one HTTP request of protocol 2026-07-28 that does the same, with its
 * headers (`Mcp-Method`, `Mcp-Name`) and the `_meta` envelope; the client declares no elicitation, so a call that
 * needs approval answers with the approval page's link instead of a form. As client code: an ES module on the
 * official client, pinned to the same revision. A bearer token is never written out: both read it from
 * `MCP_TOKEN` in the environment. Every value is written as JSON, never as code of its own.
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

/** The official client's method, and its argument, for each console request. */
const clientCalls: Readonly<Record<string, (params: Readonly<Record<string, unknown>>) => string>> = {
  'tools/call': (params) => `callTool(${JSON.stringify({ name: params.name, arguments: params.arguments })})`,
  'resources/read': (params) => `readResource(${JSON.stringify({ uri: params.uri })})`,
  'prompts/get': (params) => `getPrompt(${JSON.stringify({ name: params.name, arguments: params.arguments })})`,
};

/** An ES module that makes the same request with @modelcontextprotocol/client and prints the result. */
export function clientOf(
  url: string,
  method: string,
  params: Readonly<Record<string, unknown>>,
  bearer: boolean,
): string {
  const call = clientCalls[method]?.(params) ?? `request(${JSON.stringify({ method, params })})`;
  const options = bearer ? ", { requestInit: { headers: { authorization: 'Bearer ' + process.env.MCP_TOKEN } } }" : '';
  return [
    "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
    '',
    'const client = new Client(',
    "  { name: 'my-client', version: '1.0.0' },",
    `  { versionNegotiation: { mode: { pin: ${JSON.stringify(protocolVersion)} } } },`,
    ');',
    `await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)})${options}));`,
    `const result = await client.${call};`,
    'console.log(JSON.stringify(result, null, 2));',
    'await client.close();',
    '',
  ].join('\n');
}

/** What "Copy as" offers for one request. */
export interface Copies {
  readonly curl: string;
  readonly client: string;
}

export function copiesOf(
  url: string,
  method: string,
  params: Readonly<Record<string, unknown>>,
  bearer: boolean,
): Copies {
  return { curl: curlOf(url, method, params, bearer), client: clientOf(url, method, params, bearer) };
}
