/**
 * The fast path of Streamable HTTP. The SDK's `createMcpHandler` builds a
 * server, a transport and web streams for every request; over stdio one
 * pinned server answers every call at about a quarter of that cost. Here a
 * plain modern `tools/call` goes to one pinned server in the same way: built
 * once, lazily, by the same factory, with every tool, and fed through an
 * in-memory transport. The SDK still validates the arguments, runs the tool and
 * shapes its result; the fast path only carries the message in and the answer
 * out, with the status, headers and body the per-request path gives.
 *
 * A request takes it only when every check below plainly holds; anything else
 * (another method, a batch, a notification, a header the SDK would decode or
 * reject, progress or logging, which need an event stream, an MRTR retry, a
 * tool with approval, idempotency, handles or a missing scope) gets `undefined`,
 * and http.gen.ts hands it to the SDK's handler unchanged. So does an error the
 * SDK raises before any handler runs: the SDK's path answers it with its own
 * status, and nothing has happened yet that a second try could repeat.
 */
import {
  classifyInboundRequest,
  createMcpHandler,
  isJsonContentType,
  type AuthInfo,
  type JSONRPCRequest,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';
import { classification, type FastAnswer, PinnedTransport, revision } from './http-pinned.gen.js';
import { admitted } from './register.gen.js';
import type { RegistrySpec, ToolSpec } from './spec.gen.js';
import type { Telemetry } from './startup.gen.js';

export type { FastAnswer } from './http-pinned.gen.js';

/** What http.gen.ts asks of the fast path. */
export interface FastPath {
  /**
   * Larger bodies take the SDK's path. The fast path saves a fixed cost per call, which matters for small calls;
   * with many large concurrent bodies its quicker turnover lets garbage pile up between collections.
   */
  readonly maxBodyBytes: number;
  /**
   * The answer to a plain modern `tools/call` POSTed to `url`, or undefined when the SDK's per-request path must
   * serve it; `signal` aborts when the client goes away or the server drains. `web` builds the same headers as web
   * Headers, for whoever reads `ctx.http.req.headers`.
   */
  answer(
    headers: IncomingHttpHeaders,
    web: () => Headers,
    url: string,
    body: unknown,
    authInfo: AuthInfo | undefined,
    signal: AbortSignal,
  ): Promise<FastAnswer | undefined>;
  /** Closes the pinned server (its calls in flight were cancelled by their signals). */
  close(): Promise<void>;
}

/**
 * The `_meta` keys a plain call may carry: the envelope and trace context; progressToken and logLevel need an event
 * stream.
 */
const plainMetaKeys = new Set([
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
  'traceparent',
  'tracestate',
  'baggage',
]);

/**
 * The tools whose calls need nothing the pinned server could answer differently, by name: no approval, idempotency
 * or consumed handles (state and MRTR rounds), no `x-mcp-header` arguments (the SDK's entry alone checks
 * `Mcp-Param-*`).
 */
export function plainTools(registry: RegistrySpec): ReadonlyMap<string, ToolSpec> {
  const plain = registry.tools.filter(
    (tool) =>
      tool.approval !== 'confirm' &&
      tool.idempotency !== 'key' &&
      tool.handles.consumes.length === 0 &&
      !JSON.stringify(tool.inputSchema).includes('"x-mcp-header"'),
  );
  return new Map(plain.map((tool) => [tool.name, tool]));
}

/**
 * The request as the pinned server may take it, or undefined when the SDK's path must serve it (exported for its
 * tests).
 */
export function plainCall(
  headers: Pick<Headers, 'get'>,
  body: unknown,
  tools: ReadonlyMap<string, ToolSpec>,
  authInfo: AuthInfo | undefined,
): JSONRPCRequest | undefined {
  if (
    body === null ||
    typeof body !== 'object' ||
    Array.isArray(body) ||
    !isJsonContentType(headers.get('content-type'))
  )
    return undefined;
  const message = body as { method?: unknown; id?: unknown; params?: unknown };
  if (message.method !== 'tools/call' || !(typeof message.id === 'string' || typeof message.id === 'number'))
    return undefined;
  const params = message.params as { name?: unknown; _meta?: Record<string, unknown> } | undefined;
  if (
    params === null ||
    typeof params !== 'object' ||
    Object.keys(params).some((key) => key !== 'name' && key !== 'arguments' && key !== '_meta')
  )
    return undefined;
  const meta = params._meta;
  if (
    meta === null ||
    typeof meta !== 'object' ||
    meta['io.modelcontextprotocol/protocolVersion'] !== revision ||
    Object.keys(meta).some((key) => !plainMetaKeys.has(key))
  )
    return undefined;
  const name = headers.get('mcp-name');
  if (
    headers.get('mcp-protocol-version') !== revision ||
    headers.get('mcp-method') !== 'tools/call' ||
    name === null ||
    name !== params.name
  )
    return undefined;
  // A scope challenge is answered by the SDK's entry (the rule of register.gen.ts: without auth info, none).
  const tool = tools.get(name);
  if (tool === undefined || (authInfo !== undefined && !admitted(tool, authInfo.scopes))) return undefined;
  // The SDK's own classification (JSON-RPC shape, envelope, header cross-checks): anything it would not serve as is
  // goes to it.
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: revision,
    mcpMethodHeader: 'tools/call',
    mcpNameHeader: name,
    body,
  });
  return route.kind === 'modern' && route.messageKind === 'request' && route.classification.revision === revision
    ? (body as JSONRPCRequest)
    : undefined;
}

/** A header of Node's request as web Headers would give it: repeated values joined, absent null. */
const headerOf = (headers: IncomingHttpHeaders, name: string): string | null => {
  const value = headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
};

/** The fast path over `registry`'s tools; `build` makes the pinned server (every tool) on the first plain call. */
export function createFastPath(
  registry: RegistrySpec,
  build: () => McpServer,
  log: (message: string) => void,
  telemetry: Telemetry | null = null,
): FastPath {
  const tools = plainTools(registry);
  let pinned: Promise<{ readonly server: McpServer; readonly transport: PinnedTransport }> | undefined;
  const connect = async (): Promise<{ readonly server: McpServer; readonly transport: PinnedTransport }> => {
    const server = build();
    // The SDK's entry binds each server it builds to 2026-07-28 (era and served versions, not public API); the pinned
    // server gets the same state from a handler of its own answering one server/discover, which then lets it go.
    const primer = createMcpHandler(() => server, { legacy: 'reject' });
    const headers = {
      'content-type': 'application/json',
      'mcp-protocol-version': revision,
      'mcp-method': 'server/discover',
    };
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': revision,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    await primer.fetch(new Request('http://localhost/', { method: 'POST', headers }), {
      parsedBody: { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta } },
    });
    await Promise.all([server.close(), primer.close()]);
    // Traced from its real connection on: the primer's server/discover is no client's request.
    telemetry?.instrument(server);
    const transport = new PinnedTransport();
    transport.onerror = (error) => log(`http: ${error.message}`);
    server.server.onerror = (error) => log(`http: ${error.message}`);
    await server.connect(transport);
    return { server, transport };
  };
  return {
    maxBodyBytes: 64 * 1024,
    async answer(headers, web, url, body, authInfo, signal) {
      const message = plainCall({ get: (name) => headerOf(headers, name) }, body, tools, authInfo);
      if (message === undefined) return undefined;
      pinned ??= connect();
      // A server that cannot be built or connected is tried again on the next call; this one takes the SDK's path.
      const transport = await pinned.then(
        (pin) => pin.transport,
        (error: unknown) => {
          pinned = undefined;
          log(`http: the pinned server failed: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        },
      );
      if (transport === undefined) return undefined;
      // The extra the SDK's per-request transport gives: the request (headers, URL) and the auth info. The SDK only
      // passes the request on (as ctx.http.req), so it is its method, URL and headers, not a web Request: building
      // one copies the headers and makes an AbortSignal on every call. The web Headers are built only if read.
      const request = {
        method: 'POST',
        url,
        get headers() {
          return web();
        },
      } as Pick<Request, 'method' | 'url' | 'headers'> as Request;
      return transport.dispatch(
        message,
        { classification, request, ...(authInfo === undefined ? {} : { authInfo }) },
        signal,
      );
    },
    async close() {
      if (pinned !== undefined) await (await pinned).server.close();
    },
  };
}
