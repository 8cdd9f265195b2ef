/**
 * Streamable HTTP on node:http, without a framework: one POST endpoint. The
 * body is read and parsed once and handed to the SDK as `parsedBody`. Origin
 * and Host are checked before anything else (DNS-rebinding protection, which
 * the SDK's handler leaves to its host). With auth, the protected-resource
 * metadata is public and every MCP request is authenticated before its body is
 * even read, so anonymous clients cannot make the server parse large bodies.
 * Two caps bound one instance: requests served at once, and body bytes held at
 * once (a body is held until its answer is sent); over either, 503 with
 * Retry-After before the body is read. A client that goes away aborts its
 * call's signal. `/healthz` and `/readyz` answer probes outside all of that. SIGTERM/SIGINT refuse new calls (503),
 * let calls in flight finish for the grace period, cancel the rest (answered 503), run the user's teardown, and exit 0.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createMcpHandler,
  isJsonContentType,
  isLegacyRequest,
  localhostAllowedHostnames,
  type AuthInfo,
  type McpRequestContext,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { StartupError } from './handler.gen.js';
import { createFastPath, type FastAnswer, type FastPath } from './http-fast.gen.js';
import { ListenStreams, listenIdOf, type ListenLimits } from './listen-streams.gen.js';
import { toolsetNames, toolsIn } from './register.gen.js';
import { principalIdOf } from './call.gen.js';
import type { TaskHooks } from './hooks.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import type { RuntimeModules } from './start.gen.js';
import type { Changes, Lazy, PageServer, Readiness, ReadinessCheck, ServeHttp, Startup } from './startup.gen.js';

/** What http.gen.ts needs to protect the MCP endpoint (auth.gen.ts, in projects with auth). */
export interface HttpAuth {
  /** Path of the protected-resource metadata document, e.g. `/.well-known/oauth-protected-resource/mcp`. */
  readonly metadataPath: string;
  /**
   * The metadata document. `origin` is where the server listens (`http://<bind host>:<port>`), the public origin
   * when none is configured; public URLs never come from a request's headers, which any client chooses.
   */
  metadata(origin: string): Record<string, unknown>;
  /**
   * The caller's verified auth info, or the 401/500 response to send instead (its challenge built as `metadata` says).
   */
  authenticate(req: IncomingMessage, origin: string): Promise<{ authInfo: AuthInfo } | { response: Response }>;
}

/** The legacy adapter (legacy-http.gen.ts, in projects with `legacy: serve`): 2025-11-25 clients and their sessions. */
export interface LegacyAdapter {
  fetch(request: Request, options: { readonly parsedBody?: unknown; readonly authInfo?: AuthInfo }): Promise<Response>;
}

/** auth.gen.ts's entry: the authorization the manifest asks for on the MCP endpoint at `path`. */
export type HttpAuthFactory = (startup: Startup, path: string) => Promise<HttpAuth>;

declare module './start.gen.js' {
  interface RuntimeModules {
    /** legacy-http.gen.ts, with `legacy: serve`. */
    readonly legacyHttp?: Lazy<{
      readonly LegacySessions: new (
        factory: McpServerFactory,
        limits: { maxSessions: number; idleMs: number },
        log: (message: string) => void,
        now: () => number,
        attach: Changes['attach'] | null,
      ) => LegacyAdapter;
      readonly defaultLegacyLimits: { maxSessions: number; idleMs: number };
    }>;
    /** auth.gen.ts, with bearer or OAuth authorization. */
    readonly auth?: Lazy<{ readonly httpAuth: HttpAuthFactory }>;
  }
}

/** Where and how the HTTP transport listens. */
export interface HttpOptions {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** Browser origins allowed besides loopback ones, compared exactly. */
  readonly allowedOrigins: readonly string[];
  /** legacy-http.gen.ts with `legacy: serve`; without it, 2025-11-25 clients are rejected. */
  readonly legacy: RuntimeModules['legacyHttp'];
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes?: number;
  /** Requests served at once; more get 503. */
  readonly maxConcurrentCalls: number;
  /** Request body bytes held at once; more get 503. */
  readonly maxBufferedBytes: number;
  /** `subscriptions/listen` streams: caps apart from call slots, keep-alives, idle close (listen-streams.gen.ts). */
  readonly listen: ListenLimits;
  readonly serverInfo: ConstructorParameters<typeof ListenStreams>[1];
  /** Every revision the server answers (registry discover.supportedVersions): -32022 names them. */
  readonly supportedVersions: readonly string[];
  /** What `/readyz` reports; null: no `/healthz` and `/readyz` (MCP_GEN_HEALTH=off). */
  readonly readiness: Readiness | null;
  /** With `notifications`: the bus `subscriptions/listen` streams and legacy sessions hear (notify.gen.ts). */
  readonly changes?: Changes | null;
  /** With task tools: `notifications/tasks` on listen streams (tasks-listen.gen.ts). */
  readonly tasks?: TaskHooks | null;
  /** The toolsets an `Mcp-Toolsets` header may name (and `all`). */
  readonly toolsets?: readonly string[];
  /** With approvals: the approval pages (approval-page.gen.ts), served under `/approvals/` on this origin. */
  readonly pages?: PageServer | null;
}

/**
 * A running HTTP transport; `drain` refuses new calls, waits up to `graceMs` for calls in flight, cancels the rest, and
 * closes.
 */
export interface HttpServer {
  readonly server: Server;
  drain(graceMs: number): Promise<void>;
}

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

function jsonError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
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
async function readBody(
  req: IncomingMessage,
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
async function send(res: ServerResponse, response: Response | FastAnswer): Promise<void> {
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
const bracketed = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The request-target's path and query, and the authority to check: the Host header, or the target's own for the
 * absolute form, which RFC 9112 §3.2.2 says replaces it. Null for a target that is neither (`*`, garbage).
 */
function targetOf(req: IncomingMessage): { readonly path: string; readonly host: string | undefined } | null {
  const raw = req.url ?? '/';
  if (raw.startsWith('/')) return { path: raw, host: req.headers.host };
  const absolute = /^https?:\/\/([^/?#]*)([/?][^#]*)?$/i.exec(raw);
  if (absolute === null) return null;
  const rest = absolute[2] ?? '/';
  return { path: rest.startsWith('/') ? rest : `/${rest}`, host: absolute[1] };
}

/**
 * The legacy adapter, loaded only for legacy: serve (a server that rejects 2025-11-25 clients neither loads nor
 * contains it).
 */
async function legacySessions(
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
async function advertised(response: Response, supported: readonly string[]): Promise<Response> {
  if (response.status !== 400 || response.headers.get('content-type')?.includes('json') !== true) return response;
  const body = (await response.json()) as { error?: { code?: number; data?: object } };
  if (body.error?.code === -32022) body.error.data = { ...body.error.data, supported: [...supported] };
  return Response.json(body, { status: 400, headers: response.headers });
}

const busy = (message: string): Response => jsonError(503, -32000, message, { 'retry-after': '1' });

/** How long `/readyz` waits for a check: under the one second an orchestrator's probe waits by default (Kubernetes). */
export const probeTimeoutMs = 500;

/** `/healthz` (live) or `/readyz` (ready), unless the MCP endpoint or the auth metadata has that path (they win). */
function probeOf(req: IncomingMessage, taken: readonly string[]): 'live' | 'ready' | undefined {
  const path = targetOf(req)?.path.split('?')[0];
  if (path === undefined || taken.includes(path)) return undefined;
  return path === '/healthz' ? 'live' : path === '/readyz' ? 'ready' : undefined;
}

/**
 * The probe answers. Live: 200 whenever the process serves HTTP. Ready: 200 only once start-up has finished, every
 * check answers within probeTimeoutMs and the server is not draining; else 503, naming each check's state and the
 * reason a check gave (setup.ts's `ready`). The body says ok or not, never a host, URL, version or setting, so probes
 * need no auth and skip the Host and Origin checks (an orchestrator sends the pod's IP as Host); why a check threw
 * goes to stderr, once per change of its state. Each check runs once at a time however many probes wait on it, so a
 * flood of probes costs the store one PING at a time; its signal aborts when its time is up.
 */
function probes(
  readiness: Readiness,
  draining: () => boolean,
  log: (message: string) => void,
): (kind: 'live' | 'ready', method: string | undefined) => Promise<Response> {
  // A check's verdict: null when it passed, else why not ('' when it gave no reason) and what stderr gets.
  type Verdict = { readonly reason: string; readonly detail: string } | null;
  const running = new Map<string, Promise<Verdict>>();
  const last = new Map<string, string>();
  const tooLate = { reason: '', detail: `no answer within ${probeTimeoutMs} ms` };
  const verdict = (name: string, check: ReadinessCheck): Promise<Verdict> => {
    let pending = running.get(name);
    if (pending === undefined) {
      const signal = AbortSignal.timeout(probeTimeoutMs);
      // An answer after the signal aborted is late, whatever it says.
      pending = Promise.resolve()
        .then(() => check(signal))
        .then(
          (reason) => (signal.aborted ? tooLate : typeof reason === 'string' ? { reason, detail: reason } : null),
          (error: unknown) =>
            signal.aborted ? tooLate : { reason: '', detail: error instanceof Error ? error.message : String(error) },
        );
      running.set(name, pending);
      void pending.then(() => running.delete(name));
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Verdict>((resolve) => (timer = setTimeout(resolve, probeTimeoutMs, tooLate)));
    return Promise.race([pending, late]).then((found) => {
      clearTimeout(timer);
      const state = found === null ? 'ok' : `down: ${found.detail}`;
      if (state !== (last.get(name) ?? 'ok')) log(`readyz: check "${name}" is ${found === null ? 'ok again' : state}`);
      last.set(name, state);
      return found;
    });
  };
  return async (kind, method) => {
    const headers = { 'cache-control': 'no-store' };
    if (method !== 'GET' && method !== 'HEAD')
      return jsonError(405, methodNotAllowedCode, 'Method not allowed.', { allow: 'GET, HEAD', ...headers });
    if (kind === 'live') return Response.json({ status: 'ok' }, { headers });
    const named = [...readiness.checks];
    const verdicts = await Promise.all(named.map(([name, check]) => verdict(name, check)));
    const checks: Record<string, string> = { startup: readiness.started ? 'ok' : 'pending' };
    const reasons: Record<string, string> = {};
    for (const [i, [name]] of named.entries()) {
      const found = verdicts[i];
      checks[name] = found === null ? 'ok' : 'down';
      if (found?.reason) reasons[name] = found.reason;
    }
    checks.shutdown = draining() ? 'draining' : 'ok';
    const ok = Object.values(checks).every((state) => state === 'ok');
    const body = { status: ok ? 'ok' : 'unavailable', checks, ...(Object.keys(reasons).length > 0 ? { reasons } : {}) };
    // A HEAD gets the same status and headers; Node sends no body in answer to HEAD.
    return Response.json(body, { status: ok ? 200 : 503, headers });
  };
}

/** Serves `factory` over Streamable HTTP; resolves once listening. */
export async function startHttp(
  factory: McpServerFactory,
  options: HttpOptions,
  auth: HttpAuth | null,
  log: (message: string) => void,
  fast: FastPath | null = null,
): Promise<HttpServer> {
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
  const bindHost = bracketed(options.host);
  const allowedHosts = new Set([...localhostAllowedHostnames(), hostnameOf(bindHost) ?? bindHost.toLowerCase()]);
  // Where the server listens, set once it does (port 0 picks the port): requests are built on it, and it is the
  // public origin when none is configured. Nothing a client sends (Host, X-Forwarded-*) ever becomes a URL.
  let origin = '';
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
  // Each request in flight, with the body bytes it holds and the controller that cancels it.
  const inflight = new Map<ServerResponse, { held: number; readonly cancel: AbortController }>();
  let buffered = 0;
  let draining = false;
  const listens = new ListenStreams(options.listen, options.serverInfo);
  // Listen streams being answered: outside `inflight`, but a drain lets their last message out before it closes.
  const streaming = new Set<ServerResponse>();
  const probe = options.readiness === null ? null : probes(options.readiness, () => draining, log);
  const taken = auth === null ? [options.path] : [options.path, auth.metadataPath];

  const answer = async (
    req: IncomingMessage,
    call: { held: number; readonly cancel: AbortController; readonly stream: () => void },
  ): Promise<Response | FastAnswer> => {
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
    // Web Headers only for the SDK's path: the fast path reads Node's header object.
    let web: Headers | undefined;
    const headersOf = (): Headers => {
      if (web !== undefined) return web;
      web = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') web.set(name, value);
        else if (Array.isArray(value)) web.set(name, value.join(', '));
      }
      return web;
    };
    // DNS-rebinding guard: the same rule and answer as the SDK's hostHeaderValidationResponse,
    // checked on the parsed header instead of a probe Request built for every call.
    if (!allowedHosts.has(hostname)) return jsonError(403, -32000, `Invalid Host: ${hostname}`);
    // Before the Origin rule of MCP requests: a page posts from this origin, which the page itself requires.
    if (options.pages != null && url.pathname.startsWith('/approvals/'))
      return options.pages.serve(req, url.pathname, origin);
    if (!isOriginAllowed(req.headers.origin, options.allowedOrigins))
      return jsonError(403, -32000, 'Forbidden: Origin not allowed');
    if (auth !== null && url.pathname === auth.metadataPath) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return jsonError(405, methodNotAllowedCode, 'Method not allowed.', { allow: 'GET, HEAD' });
      const document = Response.json(auth.metadata(origin));
      return req.method === 'HEAD' ? new Response(null, { headers: document.headers }) : document;
    }
    if (url.pathname !== options.path) return jsonError(404, -32601, 'Not found');
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
    // Before the body is read, for both eras (the SDK's own answer carries -32000).
    if (method === 'POST' && !isJsonContentType(req.headers['content-type']))
      return jsonError(415, unsupportedMediaTypeCode, 'Unsupported Media Type: Content-Type must be application/json');
    if (session && legacy !== null)
      return legacy.fetch(
        new Request(url.href, { method, headers: headersOf() }),
        authInfo === undefined ? {} : { authInfo },
      );
    const body = await readBody(req, limit, (size) => {
      if (size <= call.held) return true;
      buffered += size - call.held;
      call.held = size;
      return buffered <= options.maxBufferedBytes;
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
    // Mcp-Toolsets narrows one request to some toolsets, never past the deployment's; an unknown name is a mistake.
    const narrowing = req.headers['mcp-toolsets'] === undefined ? null : headersOf().get('mcp-toolsets');
    const unknown = toolsetNames(narrowing ?? '').filter((n) => n !== 'all' && !options.toolsets?.includes(n));
    if (unknown.length > 0) return jsonError(400, -32602, `Unknown toolset in Mcp-Toolsets: ${unknown.join(', ')}`);
    // A plain modern tools/call is answered by the pinned server (http-fast.gen.ts); it is never a legacy request.
    const quick =
      fast === null || narrowing !== null || body.length > fast.maxBodyBytes
        ? undefined
        : await fast.answer(req.headers, headersOf, url.href, parsedBody, authInfo, call.cancel.signal);
    if (quick !== undefined)
      return call.cancel.signal.aborted && draining ? busy('Server shutting down: the call was cancelled') : quick;
    // The SDK takes the parsed body and never reads the Request's own, so none is attached:
    // a body would cost a web stream per call.
    // Its signal is the call's: aborting it (client gone, shutdown) closes the exchange and aborts the handler's
    // ctx.signal.
    const request = new Request(url.href, { method: 'POST', headers: headersOf(), signal: call.cancel.signal });
    const given = authInfo === undefined ? { parsedBody } : { parsedBody, authInfo };
    const response =
      legacy !== null && (await isLegacyRequest(request, parsedBody))
        ? await legacy.fetch(request, given)
        : await handler.fetch(request, given);
    return call.cancel.signal.aborted && draining ? busy('Server shutting down: the call was cancelled') : response;
  };

  const server = createServer((req, res) => {
    // Probes first: outside the caps (a busy instance is still alive), and answered while draining.
    const kind = probe === null ? undefined : probeOf(req, taken);
    if (probe !== null && kind !== undefined) {
      probe(kind, req.method)
        .then((response) => send(res, response))
        .catch(() => res.destroy());
      return;
    }
    // Over a cap or shutting down: refused before the body is read; Node discards the unread body without holding it.
    const declared = Number(req.headers['content-length'] ?? 0) || 0;
    if (draining || inflight.size >= options.maxConcurrentCalls || buffered + declared > options.maxBufferedBytes) {
      const refusal = draining
        ? jsonError(503, -32000, 'Server shutting down', { 'retry-after': '1', connection: 'close' })
        : busy('Server busy: too many requests in flight');
      send(res, refusal).catch(() => res.destroy());
      return;
    }
    // A listen stream leaves the call slots once admitted (`stream`); its close still aborts its signal.
    const release = (): void => {
      inflight.delete(res);
      buffered -= call.held;
      call.held = 0;
    };
    const call = {
      held: declared,
      cancel: new AbortController(),
      stream: () => {
        release();
        streaming.add(res);
      },
    };
    buffered += declared;
    inflight.set(res, call);
    res.once('close', () => {
      release();
      streaming.delete(res);
      if (!res.writableFinished) call.cancel.abort();
    });
    answer(req, call)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        log(`http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        // The error answer itself may fail (the client is gone); that must not become an unhandled rejection.
        if (!res.headersSent) send(res, jsonError(500, -32603, 'Internal error')).catch(() => res.destroy());
        else res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      origin = `http://${bindHost}:${typeof address === 'object' && address !== null ? address.port : options.port}`;
      options.pages?.attach(origin);
      resolve();
    });
  });
  const drain = async (graceMs: number): Promise<void> => {
    draining = true;
    listens.closeAll();
    // The listener stays open while calls finish: meanwhile /readyz answers 503 and a new request 503 with
    // Retry-After, rather than a refused connection while the load balancer still sends traffic here.
    server.closeIdleConnections();
    const deadline = Date.now() + graceMs;
    while (inflight.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const call of inflight.values()) call.cancel.abort();
    // Cancelled calls are answered 503 at once, ended listen streams with their result; give those a moment.
    for (let i = 0; i < 100 && inflight.size + streaming.size > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    // Every call is answered by now; closing the SDK's per-request servers may wait on abandoned work: a second at most
    await Promise.race([
      Promise.all([closed, handler.close(), fast?.close()]),
      new Promise((resolve) => setTimeout(resolve, 1000).unref()),
    ]);
  };
  return { server, drain };
}

/**
 * The tool a modern HTTP `tools/call` request names, or undefined for any
 * other request. The SDK checks the Mcp-Method and Mcp-Name headers against
 * the body before it calls the factory, so the server built for that request
 * needs only that tool: registering each further tool costs about 8 µs on
 * every request. A name that is not plainly one of ours (absent, encoded,
 * unknown) gets every tool, so the SDK answers exactly as it would otherwise.
 */
export function calledTool(registry: RegistrySpec, ctx: McpRequestContext | undefined): string | undefined {
  const headers = ctx?.era === 'modern' ? ctx.requestInfo?.headers : undefined;
  if (headers === undefined || headers.get('mcp-method')?.trim() !== 'tools/call') return undefined;
  const name = headers.get('mcp-name')?.trim();
  return registry.tools.some((tool) => tool.name === name) ? name : undefined;
}

/**
 * Serves the registry's HTTP transport with `--host` and `--port` applied (with auth.gen.ts when the server has auth),
 * and logs where it listens.
 */
export const serveHttp: ServeHttp = async (startup, values, build, changes, tasks, pages) => {
  const { registry, modules, log, environment, readiness } = startup;
  const http = registry.transports.http ?? {
    host: '127.0.0.1',
    port: 3000,
    path: '/mcp',
    allowedOrigins: [],
    maxConcurrentCalls: 100,
    maxBufferedBytes: 16 * 1024 * 1024,
    shutdownGraceMs: 10_000,
    maxListenStreams: 1000,
    maxListenStreamsPerPrincipal: 10,
    listenKeepAliveMs: 15_000,
    listenIdleMs: 600_000,
  };
  const host = values.host ?? http.host;
  const port = values.port === undefined ? http.port : /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(`--port must be a port number, got "${values.port}"`);
  // Without a configured public URL, bearer metadata names where the server listens; on a wildcard address
  // that is no address a client can use.
  if (registry.auth.type === 'bearer' && registry.auth.resource === null && ['0.0.0.0', '::', '[::]'].includes(host)) {
    throw new StartupError(
      `bearer auth on the wildcard host "${host}" needs auth.resource, the public URL of the MCP endpoint (e.g. ` +
        `https://mcp.example.com${http.path}); the metadata and challenges advertise it`,
    );
  }
  const auth = modules.auth === undefined ? null : await (await modules.auth()).httpAuth(startup, http.path);
  // MCP_GEN_HTTP_FAST_PATH=off serves every request through the SDK's per-request path.
  const { telemetry } = startup;
  const fast =
    startup.environment.MCP_GEN_HTTP_FAST_PATH === 'off'
      ? null
      : createFastPath(registry, () => build(), log, telemetry);
  const running = await startHttp(
    (ctx) => {
      const narrowing = ctx?.era === 'modern' ? ctx.requestInfo?.headers.get('mcp-toolsets') : null;
      const narrow = narrowing === null || narrowing === undefined ? undefined : toolsetNames(narrowing);
      const server = build(calledTool(registry, ctx), narrow === undefined ? undefined : toolsIn(registry, narrow));
      return telemetry === null ? server : telemetry.instrument(server);
    },
    // MCP_GEN_HEALTH=off: no /healthz and /readyz (both paths then answer 404, as any unknown path).
    {
      ...http,
      host,
      port,
      listen: {
        maxStreams: http.maxListenStreams,
        maxStreamsPerPrincipal: http.maxListenStreamsPerPrincipal,
        keepAliveMs: http.listenKeepAliveMs,
        idleMs: http.listenIdleMs,
      },
      serverInfo: registry.discover._meta['io.modelcontextprotocol/serverInfo'],
      supportedVersions: registry.discover.supportedVersions,
      legacy: modules.legacyHttp,
      changes,
      tasks,
      readiness: environment.MCP_GEN_HEALTH === 'off' ? null : readiness,
      toolsets: registry.selection.toolsets.map((t) => t.name),
      pages,
    },
    auth,
    log,
    fast,
  );
  const stop = (signal: string): void => {
    log(`${registry.server.name}: ${signal}, finishing calls in flight (at most ${http.shutdownGraceMs} ms)`);
    // The user's teardown (src/setup.ts) runs once every call is answered: handlers may still use its services.
    running.drain(http.shutdownGraceMs).then(
      () => startup.lifecycle.stop().then((code) => process.exit(code)),
      (error: unknown) => {
        log(`http: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  // Before saying where it listens: whoever waits for that line may signal at once.
  process.once('SIGTERM', stop).once('SIGINT', stop);
  const address = running.server.address();
  const shown = typeof address === 'object' && address !== null ? `${host}:${address.port}` : `${host}:${port}`;
  log(`${registry.server.name} listening on http://${shown}${http.path}`);
};
