/**
 * The legacy adapter: 2025-11-25 clients over Streamable HTTP, loaded only with
 * `protocol.legacy: serve`. Every handshake-era mechanism of the HTTP server
 * lives here and nowhere else: `initialize` opens a session named by an
 * `Mcp-Session-Id` header, GET opens that session's stream of server-to-client
 * messages, DELETE ends it. The modern path (createMcpHandler in http.gen.ts)
 * never sees any of them.
 *
 * Each session holds one McpServer from the same factory, connected to the
 * SDK's WebStandardStreamableHTTPServerTransport. On such a connection the SDK
 * turns an `input_required` result (an approval, a handler's own input request)
 * into real `elicitation/create` (or `sampling/createMessage`, `roots/list`)
 * requests to the client and retries the handler with the answers, so the same
 * approval code serves both eras. A POST without a session that is not an
 * `initialize` is still answered statelessly, as the SDK's own legacy serving
 * does.
 *
 * Each session's server also gets the 2025-era requests that have no
 * 2026-07-28 form (`logging/setLevel`; `resources/subscribe` with
 * `notifications.resourceUpdates`), declared and answered exactly as on a
 * stdio connection (legacy.gen.ts, notify.gen.ts), and the changes the
 * server announces on its GET stream.
 *
 * Sessions live in this process's memory: behind a load balancer, legacy
 * clients need sticky routing by `Mcp-Session-Id` (modern traffic does not).
 * They are bounded in number (the least recently used is closed to make room)
 * and in idle time (no request and no open stream), and a session belongs to
 * the principal that opened it: anyone else is told it does not exist. A
 * session opened on `<path>/x/<toolsets>` serves those toolsets for its life
 * (the factory reads them from the request's Mcp-Toolsets, which the endpoint
 * sets from the path alone), and exists only on that path.
 */
import { randomUUID } from 'node:crypto';
import {
  isInitializeRequest,
  legacyStatelessFallback,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServerFactory,
  type Server,
} from '@modelcontextprotocol/server';
import { adaptLegacy } from './legacy.gen.js';

/** How many legacy sessions one process keeps, and for how long an unused one stays open. */
export interface LegacyLimits {
  readonly maxSessions: number;
  readonly idleMs: number;
}

/** 256 sessions, closed after 30 minutes without a request or an open stream. */
export const defaultLegacyLimits: LegacyLimits = { maxSessions: 256, idleMs: 30 * 60_000 };

/** What the HTTP server hands over with each request: the body it already parsed, the verified caller. */
export interface LegacyRequestOptions {
  readonly parsedBody?: unknown;
  readonly authInfo?: AuthInfo;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly close: () => void;
  /** The principal that opened the session. */
  readonly owner: string;
  /** The toolsets of the path it was opened on (`<path>/x/<toolsets>`), null for the endpoint itself. */
  readonly scope: string | null;
  lastUsed: number;
  /** Response streams of this session still open (a GET stream, a call waiting for the user). */
  streams: number;
}

/** The principal a session is bound to, read the way invoke.gen.ts reads it; '' without auth. */
function ownerOf(authInfo: AuthInfo | undefined): string {
  if (authInfo === undefined) return '';
  return typeof authInfo.extra?.principal === 'string' ? authInfo.extra.principal : authInfo.clientId;
}

function sessionNotFound(): Response {
  // The SDK transport's own answer to an unknown session: a 2025 client then starts a new one.
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }),
    {
      status: 404,
      headers: { 'content-type': 'application/json' },
    },
  );
}

/** The sessionful legacy leg: one instance per HTTP server. */
export class LegacySessions {
  /** In order of last request: the first entry is the least recently used. */
  private readonly sessions = new Map<string, Session>();
  private readonly stateless: (request: Request, options?: LegacyRequestOptions) => Promise<Response>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly factory: McpServerFactory,
    private readonly limits: LegacyLimits,
    log: (message: string) => void,
    private readonly now: () => number = Date.now,
    /** With `notifications`: delivers the change bus to each session's server (notify.gen.ts). */
    private readonly attach: ((server: Server, legacy: boolean) => void) | null = null,
  ) {
    this.stateless = legacyStatelessFallback(factory, (error) => log(`http (legacy): ${error.message}`));
    // Idle sessions are also closed when no request comes at all; unref: this timer never keeps the process alive.
    this.timer = setInterval(() => this.sweep(), Math.min(limits.idleMs, 60_000));
    this.timer.unref();
  }

  /** Open sessions, for tests and diagnostics. */
  get size(): number {
    return this.sessions.size;
  }

  /** Serves one legacy-classified request (see `isLegacyRequest`). */
  async fetch(request: Request, options: LegacyRequestOptions): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id === null) {
      if (request.method === 'POST' && isInitializeRequest(options.parsedBody)) return this.open(request, options);
      return this.stateless(request, options);
    }
    const session = this.sessions.get(id);
    // A session serves only the tools it was opened with: on another path it does not exist.
    const scope = request.headers.get('mcp-toolsets');
    if (session === undefined || session.owner !== ownerOf(options.authInfo) || session.scope !== scope)
      return sessionNotFound();
    if (this.expired(session)) {
      this.end(id);
      return sessionNotFound();
    }
    this.sessions.delete(id);
    this.sessions.set(id, session);
    session.lastUsed = this.now();
    return this.track(session, await session.transport.handleRequest(request, options));
  }

  /** Closes every session and stops the idle timer. */
  close(): void {
    clearInterval(this.timer);
    for (const id of [...this.sessions.keys()]) this.end(id);
  }

  private async open(request: Request, options: LegacyRequestOptions): Promise<Response> {
    this.sweep();
    while (this.sessions.size >= this.limits.maxSessions) this.evict();
    const server = await this.factory({
      era: 'legacy',
      requestInfo: request,
      ...(options.authInfo === undefined ? {} : { authInfo: options.authInfo }),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessionclosed: (id) => void this.end(id),
    });
    const close = (): void => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    };
    const session: Session = {
      transport,
      close,
      owner: ownerOf(options.authInfo),
      scope: request.headers.get('mcp-toolsets'),
      lastUsed: this.now(),
      streams: 0,
    };
    const adapted = adaptLegacy(server);
    this.attach?.('server' in adapted ? adapted.server : adapted, true);
    await adapted.connect(transport);
    const response = await transport.handleRequest(request, options);
    const id = transport.sessionId;
    if (id === undefined || response.status !== 200) {
      close();
      return response;
    }
    this.sessions.set(id, session);
    return this.track(session, response);
  }

  private expired(session: Session): boolean {
    return session.streams === 0 && this.now() - session.lastUsed > this.limits.idleMs;
  }

  /** Closes the least recently used session, preferring one with no open stream. */
  private evict(): void {
    let victim: string | undefined;
    for (const [id, session] of this.sessions) {
      victim ??= id;
      if (session.streams === 0) {
        victim = id;
        break;
      }
    }
    if (victim !== undefined) this.end(victim);
  }

  private sweep(): void {
    for (const [id, session] of [...this.sessions]) if (this.expired(session)) this.end(id);
  }

  private end(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    session.close();
  }

  /**
   * Counts an event-stream response as an open stream of `session` until it
   * ends or the client goes away, so that a host holding its GET stream (or
   * waiting for its user to answer) is not closed as idle.
   */
  private track(session: Session, response: Response): Response {
    if (response.body === null || response.headers.get('content-type')?.startsWith('text/event-stream') !== true)
      return response;
    const reader = response.body.getReader();
    session.streams++;
    let open = true;
    const finish = (): void => {
      if (!open) return;
      open = false;
      session.streams--;
      session.lastUsed = this.now();
    };
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            finish();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      cancel: async (reason) => {
        finish();
        await reader.cancel(reason).catch(() => {});
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}
