import { envelope, limits } from './harness.js';

// Requests of the toolsets tests (toolsets.test.ts, toolsets-scopes.test.ts) over HTTP: tools/list read page by
// page and tools/call answers compared without the tool's name.

/** POSTs one modern request (`Mcp-Name` from params.name) with `headers` added. */
export function post(url: URL, method: string, params: Record<string, unknown>, headers: Record<string, string>) {
  const name = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method, params: { ...params, _meta: envelope() } }),
    signal: AbortSignal.timeout(limits.requestMs),
  });
}

export type ListResult = { result: { tools: { name: string }[]; nextCursor?: string } };

/**
 * The names tools/list answers over HTTP, with `headers` added to each request, page by page (two tools a page): a
 * selection shorter than the registry ends its pages early, and the last page has no cursor.
 */
export async function listed(url: URL, headers: Record<string, string> = {}): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 3; page += 1) {
    const params = cursor === undefined ? {} : { cursor };
    const body = (await (await post(url, 'tools/list', params, headers)).json()) as ListResult;
    names.push(...body.result.tools.map((t) => t.name));
    cursor = body.result.nextCursor;
    if (cursor === undefined) return names;
  }
  throw new Error(`more pages than tools: ${names.join(', ')}`);
}

/** tools/call of `name` over HTTP (with `headers`): status and JSON-RPC answer, the tool's name taken out. */
export async function called(url: URL, name: string, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await post(url, 'tools/call', { name, arguments: {} }, headers);
  return { status: response.status, body: JSON.parse((await response.text()).replaceAll(name, '<tool>')) };
}
