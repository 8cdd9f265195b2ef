/**
 * One HTTP request as http-server.gen.ts reads and answers it: the Origin and Host rules (DNS-rebinding protection),
 * the request-target, a body read once and bounded, JSON-RPC errors as HTTP answers, and the labeled legacy adapter
 * loaded for 2025-11-25 sessions.
 */
import type { ServerResponse } from 'node:http';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { FastAnswer } from './http-fast.gen.js';
import type { LegacyAdapter } from './http.gen.js';
import { toolsetNames } from './register.gen.js';
import type { RuntimeModules } from './start.gen.js';
import type { Changes, IncomingView } from './startup.gen.js';

const loopbackHostnames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True when `origin` is absent, a loopback origin, or exactly one of `allowed`. */
export function isOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      (loopbackHostnames.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname))
    );
  } catch {
    return false;
  }
}

/**
 * JSON-RPC codes of HTTP refusals that have no JSON-RPC meaning: 405 (method not allowed) and 415 (unsupported media
 * type). The spec leaves them open; they lie outside -32768..-32000, which JSON-RPC reserves and MCP allocates, where
 * its -32000..-32019 are legacy codes a new implementation should not use (listen-streams.gen.ts has -31429 too).
 */
export const methodNotAllowedCode = -31405;
export const unsupportedMediaTypeCode = -31415;

export function jsonError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * Reads a body of at most `limit` bytes; `hold(size)` is told the running size and says whether the instance may
 * hold that much. 'cut' when the client ended it early (gone, or a body shorter than its Content-Length): the
 * client's doing, not a server failure to log.
 */
export async function readBody(
  req: IncomingView,
  limit: number,
  hold: (size: number) => boolean,
): Promise<Buffer | 'too large' | 'busy' | 'cut'> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) return 'too large';
      // Over the instance's cap the rest is read and dropped, never held: the client gets its 503 on an intact
      // connection.
      over ||= !hold(size);
      if (!over) chunks.push(chunk as Buffer);
    }
  } catch {
    return 'cut';
  }
  return over ? 'busy' : Buffer.concat(chunks);
}

/**
 * Writes a fetch Response to Node. An event stream is forwarded chunk by chunk
 * (progress notifications must arrive before the result); any other body is
 * read whole and written in one call, which costs far less than iterating a
 * web stream and lets Node send it with a Content-Length.
 */
export async function send(res: ServerResponse, response: Response | FastAnswer): Promise<void> {
  // The fast path's answer: the same status, header and bytes as the SDK's Response.json, without the web stream.
  if (!(response instanceof Response))
    return void (response.json === null
      ? res.writeHead(response.status, {}).end()
      : res
          .writeHead(response.status, {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(response.json)),
          })
          .end(response.json));
  const headers = Object.fromEntries(response.headers);
  if (response.body === null) {
    res.writeHead(response.status, headers).end();
  } else if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
    // Headers go out at once: a legacy GET stream may carry nothing for a long time.
    res.writeHead(response.status, headers).flushHeaders();
    // A client that goes away cancels the stream: a legacy GET stream would otherwise never end.
    const reader = response.body.getReader();
    res.once('close', () => void reader.cancel().catch(() => {}));
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
    res.end();
  } else {
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) }).end(body);
  }
}

/**
 * The host name of a Host header value, read as RFC 9110 §7.2 defines it (uri-host [":" port], an RFC 3986
 * authority without userinfo), lowercased, IPv6 in brackets: `[::1]:3000` -> `[::1]`. Null for anything else.
 * The WHATWG parser reads it; a value it would read as something other than its text (userinfo as in
 * `127.0.0.1:1@evil.com`, a path, query or fragment, a port out of range, an escape or a number it rewrites)
 * is refused, never reinterpreted.
 */
export function hostnameOf(host: string): string | null {
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return null;
  }
  const text = host.toLowerCase();
  // An empty port and the default port 80 are valid in an authority; the parser writes neither.
  const same = url.host === text || (url.port === '' && (text === `${url.hostname}:` || text === `${url.hostname}:80`));
  return same && url.username === '' && url.password === '' ? url.hostname : null;
}

/** `::1` -> `[::1]`: a bind address as it appears in a URL or a Host header. */
export const bracketed = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The request-target's path and query, and the authority to check: the Host header, or the target's own for the
 * absolute form, which RFC 9112 §3.2.2 says replaces it. Null for a target that is neither (`*`, garbage).
 */
export function targetOf(req: IncomingView): { readonly path: string; readonly host: string | undefined } | null {
  const raw = req.url ?? '/';
  if (raw.startsWith('/')) return { path: raw, host: req.headers.host };
  const absolute = /^https?:\/\/([^/?#]*)([/?][^#]*)?$/i.exec(raw);
  if (absolute === null) return null;
  const rest = absolute[2] ?? '/';
  return { path: rest.startsWith('/') ? rest : `/${rest}`, host: absolute[1] };
}

/**
 * The toolsets a request's path narrows it to, for hosts that let a user set only a URL: null for the endpoint itself,
 * the list of `<endpoint>/x/<comma list>` (the segment percent-decoded), undefined for any other path (an empty list
 * and more segments too), which the server does not serve.
 */
export function pathToolsets(pathname: string, endpoint: string): string[] | null | undefined {
  if (pathname === endpoint) return null;
  const prefix = `${endpoint.endsWith('/') ? endpoint.slice(0, -1) : endpoint}/x/`;
  const segment = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : '/';
  if (segment.includes('/')) return undefined;
  try {
    const names = toolsetNames(decodeURIComponent(segment));
    return names.length === 0 ? undefined : names;
  } catch {
    // A malformed escape names nothing.
    return undefined;
  }
}

/** The protected-resource metadata `document`, as GET or HEAD asks for it; any other method is 405. */
export function metadataAnswer(method: string | undefined, document: Record<string, unknown>): Response {
  if (method !== 'GET' && method !== 'HEAD')
    return jsonError(405, methodNotAllowedCode, 'Method not allowed.', { allow: 'GET, HEAD' });
  const answer = Response.json(document);
  return method === 'HEAD' ? new Response(null, { headers: answer.headers }) : answer;
}

/**
 * The one narrowing the factory reads, as the Mcp-Toolsets header handed to the SDK: the path's toolsets, and the
 * client's header as a second group after `;`. Each group narrows on its own (narrowedTools), so neither widens the
 * other; no toolset name holds `;`, so a call whose header does is refused as unknown, and a group a client wrote
 * itself could still only narrow.
 */
export const narrowingOf = (scope: string, header: string | null): string =>
  header === null ? scope : `${scope};${header}`;

/**
 * `request` as the legacy adapter takes it: its Mcp-Toolsets is the path's toolsets alone, which a session keeps for
 * its life; a client's header, which a session could not keep, is dropped as it always was.
 */
export function forLegacy(request: Request, scope: string | null): Request {
  const headers = new Headers(request.headers);
  if (scope === null) headers.delete('mcp-toolsets');
  else headers.set('mcp-toolsets', scope);
  return new Request(request, { headers });
}

/**
 * The legacy adapter, loaded only for legacy: serve (a server that rejects 2025-11-25 clients neither loads nor
 * contains it).
 */
export async function legacySessions(
  load: NonNullable<RuntimeModules['legacyHttp']>,
  factory: McpServerFactory,
  log: (message: string) => void,
  changes: Changes | null,
): Promise<LegacyAdapter> {
  const { LegacySessions, defaultLegacyLimits } = await load();
  return new LegacySessions(factory, defaultLegacyLimits, log, Date.now, changes?.attach ?? null);
}

/**
 * A -32022 of the SDK (400) naming `supported`: with legacy: serve, 2025-11-25 as well as the modern revisions the SDK
 * names (why: supportedVersions in src/emit/registry/discover.ts). Any other answer passes unchanged.
 */
export async function advertised(response: Response, supported: readonly string[]): Promise<Response> {
  if (response.status !== 400 || response.headers.get('content-type')?.includes('json') !== true) return response;
  const body = (await response.json()) as { error?: { code?: number; data?: object } };
  if (body.error?.code === -32022) body.error.data = { ...body.error.data, supported: [...supported] };
  return Response.json(body, { status: 400, headers: response.headers });
}

export const busy = (message: string): Response => jsonError(503, -32000, message, { 'retry-after': '1' });
