/**
 * `subscriptions/listen` streams over HTTP, counted apart from the call slots. A listen stream is a request whose
 * answer stays open: counted among the `maxConcurrentCalls` slots, idle streams of one caller would take every slot
 * and every other caller's calls would get 503. http.gen.ts admits a listen request here once its body is parsed, then
 * frees its call slot: streams have caps of their own, per principal and per instance, and a stream over either cap is
 * refused with `listenRefusalCode` (HTTP 400, the JSON-RPC error echoing the request's id: the official client then
 * rejects the caller's listen with that error, where any other status becomes a transport failure).
 *
 * Every open stream gets an SSE comment (`: keepalive`) each `keepAliveMs`, so proxies keep it. A stream that has
 * carried no notification for `idleMs` is ended at the next keep-alive with the listen result (the spec's graceful
 * close: `resultType: complete` with its subscription id) and the client may listen again; so are all streams when the
 * server drains. The SDK's own keep-alive is off (http.gen.ts): this module writes every one.
 */
import type { DiscoverSpec } from './spec.gen.js';

/** The JSON-RPC code of a listen request over a cap: outside -32768..-32000, which JSON-RPC and MCP reserve. */
export const listenRefusalCode = -31429;

/** The caps and times of listen streams (manifest `transports.http`). */
export interface ListenLimits {
  readonly maxStreams: number;
  readonly maxStreamsPerPrincipal: number;
  readonly keepAliveMs: number;
  readonly idleMs: number;
}

interface Stream {
  /** When it last carried a notification (keep-alives are none). */
  lastNote: number;
  readonly write: (text: string) => void;
  readonly end: () => void;
}

/** The id of a `subscriptions/listen` request, or undefined for any other body. */
export function listenIdOf(body: unknown): string | number | undefined {
  const message = body as { method?: unknown; id?: unknown } | null;
  if (message?.method !== 'subscriptions/listen') return undefined;
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
}

/** Serves an admitted listen request: `answer` is the SDK's answer to it, as a counted stream when it is one. */
export type ListenTicket = (answer: Promise<Response>) => Promise<Response>;

/** Every open listen stream of one HTTP server. */
export class ListenStreams {
  private readonly open = new Set<Stream>();
  private readonly perPrincipal = new Map<string, number>();
  /** Streams admitted and not yet ended, open or about to be. */
  private admitted = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: ListenLimits,
    private readonly serverInfo: DiscoverSpec['_meta']['io.modelcontextprotocol/serverInfo'],
    private readonly now: () => number = Date.now,
  ) {}

  /** Streams admitted and not yet ended, for tests and diagnostics. */
  get size(): number {
    return this.admitted;
  }

  /**
   * Counts a new stream of `principal` (the listen request `id`) at once, so concurrent requests cannot pass a cap
   * together; or the 400 to send when it is over one.
   */
  admit(principal: string, id: string | number): Response | ListenTicket {
    const mine = this.perPrincipal.get(principal) ?? 0;
    const limit =
      mine >= this.limits.maxStreamsPerPrincipal
        ? { limit: this.limits.maxStreamsPerPrincipal, of: 'this caller' }
        : this.admitted >= this.limits.maxStreams
          ? { limit: this.limits.maxStreams, of: 'this server' }
          : null;
    if (limit !== null) {
      const message = `Too many listen streams: ${limit.limit} are open for ${limit.of}; close one or retry later`;
      const error = { code: listenRefusalCode, message, data: { limit: limit.limit } };
      return Response.json({ jsonrpc: '2.0', id, error }, { status: 400 });
    }
    this.admitted++;
    this.perPrincipal.set(principal, mine + 1);
    let counted = true;
    const release = (): void => {
      if (!counted) return;
      counted = false;
      this.admitted--;
      const left = (this.perPrincipal.get(principal) ?? 1) - 1;
      if (left === 0) this.perPrincipal.delete(principal);
      else this.perPrincipal.set(principal, left);
    };
    return async (answer) => {
      const response = await answer.catch((error: unknown) => {
        release();
        throw error;
      });
      if (response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream') === true)
        return this.stream(response, response.body, id, release);
      release();
      return response;
    };
  }

  /** Ends every open stream with its listen result (the server drains). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.end();
  }

  /** `response` with keep-alives and the idle close; `release` when it ends, whoever ends it. */
  private stream(
    response: Response,
    source: ReadableStream<Uint8Array>,
    id: string | number,
    release: () => void,
  ): Response {
    const reader = source.getReader();
    const encoder = new TextEncoder();
    let closed = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const finish = (): boolean => {
      if (closed) return false;
      closed = true;
      release();
      this.open.delete(stream);
      if (this.open.size === 0) this.timer = void clearInterval(this.timer);
      void reader.cancel().catch(() => {});
      return true;
    };
    const stream: Stream = {
      lastNote: this.now(),
      write: (text) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      },
      // The spec's graceful close: the listen result, stamped with the subscription id.
      end: () => {
        const _meta = {
          'io.modelcontextprotocol/subscriptionId': id,
          'io.modelcontextprotocol/serverInfo': this.serverInfo,
        };
        const result = { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta } };
        stream.write(`event: message\ndata: ${JSON.stringify(result)}\n\n`);
        if (finish()) controller.close();
      },
    };
    this.open.add(stream);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.tick(), this.limits.keepAliveMs);
      // A Worker's timers are numbers, without unref.
      if (typeof this.timer === 'object') this.timer.unref();
    }
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      pull: async (c) => {
        const chunk = await reader.read().catch(() => ({ done: true, value: undefined }) as const);
        if (closed) return;
        if (chunk.done) {
          finish();
          c.close();
          return;
        }
        stream.lastNote = this.now();
        c.enqueue(chunk.value);
      },
      cancel: () => void finish(),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /** Each keep-alive interval: a comment to every open stream, or its end when it has been idle too long. */
  private tick(): void {
    const now = this.now();
    for (const stream of [...this.open]) {
      if (now - stream.lastNote >= this.limits.idleMs) stream.end();
      else stream.write(': keepalive\n\n');
    }
  }
}
