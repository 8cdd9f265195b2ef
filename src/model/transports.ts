/** The transports a server offers and their limits, as normalize decides them. */
export interface HttpModel {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** Browser origins allowed besides loopback, sorted. */
  readonly allowedOrigins: readonly string[];
  readonly loopback: boolean;
  /** Requests served at once; more get 503. */
  readonly maxConcurrentCalls: number;
  /** Request body bytes held at once; more get 503. */
  readonly maxBufferedBytes: number;
  /** On SIGTERM/SIGINT, how long calls in flight may still finish. */
  readonly shutdownGraceMs: number;
  /** `subscriptions/listen` streams open at once, apart from the calls; more are refused. */
  readonly maxListenStreams: number;
  /** The same, for one principal. */
  readonly maxListenStreamsPerPrincipal: number;
  /** How often an open listen stream gets an SSE comment. */
  readonly listenKeepAliveMs: number;
  /** A listen stream without a notification for this long is ended (at its next keep-alive). */
  readonly listenIdleMs: number;
}

export interface StdioModel {
  /** Requests in flight at once; more get a JSON-RPC error at once. */
  readonly maxConcurrentCalls: number;
}

export interface TransportsModel {
  /** Null when the server does not offer stdio. */
  readonly stdio: StdioModel | null;
  readonly http: HttpModel | null;
}
