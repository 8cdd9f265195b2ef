/**
 * The MCP endpoint behind both HTTP front ends: http-server.gen.ts (node:http) and http-fetch.gen.ts (a web fetch
 * handler, for Workers and any runtime with the Fetch API) hand it each request as an IncomingView and send what it
 * answers, so the Host and Origin rules, auth, the media type, the body cap, listen streams, toolsets, the fast path
 * and the SDK are one code path whichever front end a request came through. Two caps bound one instance (requests
 * served at once, body bytes held at once): `admit` refuses with 503 and Retry-After before the body is read.
 */
import {
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  type AuthInfo,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { principalIdOf } from './call.gen.js';
import type { FastAnswer, FastPath } from './http-fast.gen.js';
import { revision } from './http-pinned.gen.js';
import { probeOf, probes } from './http-probes.gen.js';
import {
  advertised,
  busy,
  forLegacy,
  hostnameOf,
  isOriginAllowed,
  jsonError,
  legacySessions,
  metadataAnswer,
  methodNotAllowedCode,
  narrowingOf,
  pathToolsets,
  readBody,
  targetOf,
  unsupportedMediaTypeCode,
} from './http-request.gen.js';
import type { HttpAuth, HttpOptions } from './http.gen.js';
import { ListenStreams, listenIdOf } from './listen-streams.gen.js';
import { toolsetNames } from './register.gen.js';
import type { IncomingView } from './startup.gen.js';

/** One admitted request: the body bytes it holds, the controller that cancels it, and how it leaves the counts. */
export interface AdmittedCall {
  held: number;
  readonly cancel: AbortController;
  /** A listen stream leaves the call slots once admitted; its close still aborts its signal. */
  stream(): void;
  /** The answer is sent or the client is gone: the request no longer counts. */
  end(): void;
}

/** The endpoint of one instance, whichever front end serves it. */
export interface Endpoint {
  /**
   * The answer to `/healthz` or `/readyz` (null for any other request, or without readiness): asked before `admit`,
   * outside the caps (a busy instance is still alive), and answered while draining.
   */
  probe(req: IncomingView): Promise<Response> | null;
  /** Over a cap or draining: the refusal to send before the body is read; otherwise the call, counted until `end`. */
  admit(declared: number): AdmittedCall | Response;
  /** The answer to one admitted request; `origin` is where this endpoint is served (never a client's text). */
  answer(req: IncomingView, call: AdmittedCall, origin: string): Promise<Response | FastAnswer>;
  /** Calls being answered, and listen streams being answered (outside the call slots). */
  readonly inflight: ReadonlySet<AdmittedCall>;
  readonly streaming: ReadonlySet<AdmittedCall>;
  readonly listens: ListenStreams;
  /** Refuses new requests from now on (503 with Retry-After). */
  startDrain(): void;
  readonly draining: () => boolean;
  /** Closes the SDK's per-request servers and the fast path's. */
  close(): Promise<unknown>;
}

/**
 * The endpoint serving `factory` under `options`; `hosts` are the host names a request's Host header may name
 * (DNS-rebinding protection: the front end decides them, from where it listens).
 */
export async function openEndpoint(
  factory: McpServerFactory,
  options: HttpOptions,
  auth: HttpAuth | null,
  log: (message: string) => void,
  fast: FastPath | null,
  hosts: ReadonlySet<string>,
): Promise<Endpoint> {
  // The modern path never serves a 2025-11-25 client; with legacy: serve they go to the labeled adapter in
  // legacy-http.gen.ts.
  const changes = options.changes ?? null;
  const legacy = options.legacy === undefined ? null : await legacySessions(options.legacy, factory, log, changes);
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    onerror: (error) => log(`http: ${error.message}`),
    // Listen streams are capped and kept alive by ListenStreams; the SDK's cap only backs it up.
    keepAliveMs: 0,
    maxSubscriptions: 2 * options.listen.maxStreams,
    ...(changes === null ? {} : { bus: changes.events }),
  });
  const handler =
    legacy === null
      ? modern
      : {
          fetch: async (request: Request, given: Parameters<typeof modern.fetch>[1]) =>
            advertised(await modern.fetch(request, given), options.supportedVersions),
          close: () => modern.close(),
        };
  // Nearly every request carries the same Host text: it is parsed when it changes, not once per request.
  let lastHost = '';
  let lastHostname: string | null = null;
  const hostnameFor = (host: string | undefined): string | null => {
    // Only HTTP/1.0 may leave Host out (Node answers an HTTP/1.1 request without one 400): a local client.
    if (host === undefined) return 'localhost';
    if (host !== lastHost) [lastHost, lastHostname] = [host, hostnameOf(host)];
    return lastHostname;
  };
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  // The endpoint's path when the URL parser would return it unchanged, so a request-target equal to it needs no parse.
  const canonicalPath = new URL(options.path, 'http://localhost').pathname === options.path ? options.path : null;
  const state = { buffered: 0, draining: false };
  const inflight = new Set<AdmittedCall>();
  const streaming = new Set<AdmittedCall>();
  const listens = new ListenStreams(options.listen, options.serverInfo);
  const checks = options.readiness === null ? null : probes(options.readiness, () => state.draining, log);
  // /healthz or /readyz as the endpoint's own path, or the metadata's, is theirs, not a probe.
  const taken = auth === null ? [options.path] : [options.path, auth.metadataPath];
  const unknownToolsets = (names: readonly string[]): string[] =>
    names.filter((n) => n !== 'all' && !options.toolsets?.includes(n));

  const answer = async (req: IncomingView, call: AdmittedCall, origin: string): Promise<Response | FastAnswer> => {
    // A malformed Host or request-target is the client's mistake (400), never a URL to build on.
    const target = targetOf(req);
    if (target === null) return jsonError(400, -32000, 'Bad Request: malformed request target');
    const hostname = hostnameFor(target.host);
    if (hostname === null) return jsonError(400, -32000, 'Bad Request: malformed Host header');
    // The path follows a valid authority, so the parser cannot fail or move it into the host.
    // A target that is the endpoint's path, as nearly every call's is, parses to itself: no URL is built for it.
    const url =
      target.path === canonicalPath
        ? { pathname: target.path, href: `${origin}${target.path}` }
        : new URL(`${origin}${target.path}`);
    // DNS-rebinding guard: the same rule and answer as the SDK's hostHeaderValidationResponse,
    // checked on the parsed header instead of a probe Request built for every call.
    if (!hosts.has(hostname)) return jsonError(403, -32000, `Invalid Host: ${hostname}`);
    // Before the Origin rule of MCP requests: a page posts from this origin, which the page itself requires.
    if (options.pages != null && url.pathname.startsWith('/approvals/'))
      return options.pages.serve(req, url.pathname, origin);
    if (!isOriginAllowed(req.headers.origin, options.allowedOrigins))
      return jsonError(403, -32000, 'Forbidden: Origin not allowed');
    // A narrowed path's metadata (RFC 9728's path-insert of `<path>/x/<toolsets>`) is the endpoint's: same resource.
    if (auth !== null && pathToolsets(url.pathname, auth.metadataPath) !== undefined)
      return metadataAnswer(req.method, auth.metadata(origin));
    // `<path>/x/<toolsets>` means what the Mcp-Toolsets header means (pathToolsets).
    const scoped = pathToolsets(url.pathname, options.path);
    if (scoped === undefined) return jsonError(404, -32601, 'Not found');
    // One text per set of names: a legacy session is bound to it, however the path spells the list.
    const scope = scoped === null ? null : [...new Set(scoped)].sort().join(',');
    // Web Headers only for the SDK's path: the fast path reads Node's header object.
    let web: Headers | undefined;
    const headersOf = (): Headers => {
      if (web !== undefined) return web;
      web = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') web.set(name, value);
        else if (Array.isArray(value)) web.set(name, value.join(', '));
      }
      // The path's toolsets join the header's: the factory, search and list pages read one narrowing.
      if (scope !== null) web.set('mcp-toolsets', narrowingOf(scope, web.get('mcp-toolsets')));
      return web;
    };
    // GET and DELETE exist only for legacy sessions: without an Mcp-Session-Id they are 405, as on the modern path.
    const method = req.method ?? 'GET';
    const session =
      legacy !== null && (method === 'GET' || method === 'DELETE') && req.headers['mcp-session-id'] !== undefined;
    if (method !== 'POST' && !session)
      return jsonError(405, methodNotAllowedCode, 'Method not allowed.', { allow: 'POST' });
    let authInfo: AuthInfo | undefined;
    if (auth !== null) {
      const verdict = await auth.authenticate(req, origin);
      if ('response' in verdict) return verdict.response;
      authInfo = verdict.authInfo;
    }
    const unknownInPath = unknownToolsets(scoped ?? []);
    if (unknownInPath.length > 0)
      return jsonError(400, -32602, `Unknown toolset in the URL path: ${unknownInPath.join(', ')}`);
    // Mcp-Toolsets narrows a request, never past the deployment's; an unknown name is refused, a listen stream's too.
    const header = req.headers['mcp-toolsets'];
    const unknown = unknownToolsets(toolsetNames(Array.isArray(header) ? header.join(', ') : (header ?? '')));
    if (unknown.length > 0) return jsonError(400, -32602, `Unknown toolset in Mcp-Toolsets: ${unknown.join(', ')}`);
    // Before the body is read, for both eras (the SDK's own answer carries -32000).
    if (method === 'POST' && !isJsonContentType(req.headers['content-type']))
      return jsonError(415, unsupportedMediaTypeCode, 'Unsupported Media Type: Content-Type must be application/json');
    if (session && legacy !== null)
      return legacy.fetch(
        forLegacy(new Request(url.href, { method, headers: headersOf() }), scope),
        authInfo === undefined ? {} : { authInfo },
      );
    const body = await readBody(req, limit, (size) => {
      if (size <= call.held) return true;
      state.buffered += size - call.held;
      call.held = size;
      return state.buffered <= options.maxBufferedBytes;
    });
    // The unread rest of the body is abandoned, so this connection cannot carry another request:
    // say so, or a keep-alive client sends its next request into a reset socket.
    if (body === 'too large') return jsonError(413, -32000, 'Payload Too Large', { connection: 'close' });
    if (body === 'busy') return busy('Server busy: too many request bytes in flight');
    if (body === 'cut')
      return jsonError(400, -32000, 'Bad Request: the request body ended early', { connection: 'close' });
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(body.toString('utf8'));
    } catch {
      return jsonError(400, -32700, 'Parse error');
    }
    // A listen stream counts against the listen caps, not the call slots (listen-streams.gen.ts).
    const listenId = listenIdOf(parsedBody);
    if (listenId !== undefined) {
      const principal = principalIdOf(authInfo);
      const ticket = listens.admit(principal, listenId);
      if (ticket instanceof Response) return ticket;
      call.stream();
      // Asking for task notifications: the SDK's stream, with the tasks added (tasks-listen.gen.ts).
      const request = new Request(url.href, { method: 'POST', headers: headersOf(), signal: call.cancel.signal });
      const listening = options.tasks?.listen(parsedBody, principal, call.cancel.signal, (stripped) =>
        handler.fetch(request, authInfo === undefined ? { parsedBody: stripped } : { parsedBody: stripped, authInfo }),
      );
      return ticket(
        listening ?? handler.fetch(request, authInfo === undefined ? { parsedBody } : { parsedBody, authInfo }),
      );
    }
    const narrowed = scope !== null || header !== undefined;
    // A plain modern tools/call is answered by the pinned server (http-fast.gen.ts); it is never a legacy request.
    const quick =
      fast === null || narrowed || body.length > fast.maxBodyBytes
        ? undefined
        : await fast.answer(req.headers, headersOf, url.href, parsedBody, authInfo, call.cancel.signal);
    if (quick !== undefined)
      return call.cancel.signal.aborted && state.draining
        ? busy('Server shutting down: the call was cancelled')
        : quick;
    // The SDK takes the parsed body, never the Request's own (none is attached: a web stream per call). Its signal is
    // the call's: aborting it (client gone, shutdown) closes the exchange and aborts the handler's ctx.signal.
    const request = new Request(url.href, { method: 'POST', headers: headersOf(), signal: call.cancel.signal });
    const given = authInfo === undefined ? { parsedBody } : { parsedBody, authInfo };
    // A POST whose header names 2026-07-28 is no 2025-11-25 client's: a response or batch it posts is the modern path's
    // -32600, where the legacy adapter would call 2026-07-28 an unsupported version.
    const legacyRequest = legacy !== null && request.headers.get('mcp-protocol-version')?.trim() !== revision;
    const response =
      legacyRequest && (await isLegacyRequest(request, parsedBody))
        ? await legacy.fetch(forLegacy(request, scope), given)
        : await handler.fetch(request, given);
    return call.cancel.signal.aborted && state.draining
      ? busy('Server shutting down: the call was cancelled')
      : response;
  };

  const admit = (length: number): AdmittedCall | Response => {
    if (state.draining)
      return jsonError(503, -32000, 'Server shutting down', { 'retry-after': '1', connection: 'close' });
    // No body is held past the cap: a longer one is read up to it and answered 413, not 503 busy (no retry fits it).
    const declared = Math.min(length, limit);
    if (inflight.size >= options.maxConcurrentCalls || state.buffered + declared > options.maxBufferedBytes)
      return busy('Server busy: too many requests in flight');
    const release = (): void => {
      inflight.delete(call);
      state.buffered -= call.held;
      call.held = 0;
    };
    const call: AdmittedCall = {
      held: declared,
      cancel: new AbortController(),
      stream: () => {
        release();
        streaming.add(call);
      },
      end: () => {
        release();
        streaming.delete(call);
      },
    };
    state.buffered += declared;
    inflight.add(call);
    return call;
  };
  const probe = (req: IncomingView): Promise<Response> | null => {
    const kind = checks === null ? undefined : probeOf(req, taken);
    return checks === null || kind === undefined ? null : checks(kind, req.method);
  };
  return {
    probe,
    admit,
    answer,
    inflight,
    streaming,
    listens,
    startDrain: () => {
      state.draining = true;
      listens.closeAll();
    },
    draining: () => state.draining,
    close: () => Promise.all([handler.close(), fast?.close()]),
  };
}
