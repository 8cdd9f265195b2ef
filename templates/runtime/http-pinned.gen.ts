/**
 * The pinned server's side of the fast path (http-fast.gen.ts): its answers as plain status and JSON text, and the
 * in-memory transport that carries one call in and its answer out under an id of its own.
 */
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

/**
 * An answer of the fast path: the status and JSON text the SDK's `Response` would carry (with its only header,
 * `content-type: application/json`), or no body (499: the client went away). Plain text, not a web Response:
 * building and reading one would cost a web stream per call.
 */
export interface FastAnswer {
  readonly status: number;
  readonly json: string | null;
}

/** The one revision the fast path serves, and the SDK's classification of a request of it. */
export const revision = '2026-07-28';
export const classification = { era: 'modern', revision } as const;

/** What the SDK answers a call whose client went away (as `new Response(null, { status: 499 })`). */
const gone: FastAnswer = { status: 499, json: null };

/**
 * One call on the pinned server: the client's own id, and where its answer goes (undefined: the SDK's path answers).
 */
interface Call {
  readonly id: string | number;
  readonly settle: (answer: FastAnswer | undefined) => void;
  /**
   * True while the message is handed to the server: an answer sent then comes from the SDK's gates, before any handler.
   */
  dispatching: boolean;
}

/**
 * The pinned server's transport, in memory. Each call gets a fresh internal id, since clients' ids collide across
 * connections.
 */
export class PinnedTransport implements Transport {
  private readonly calls = new Map<number, Call>();
  private next = 0;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  async start(): Promise<void> {}

  /** The id the client sent for the call with internal id `id` (its span's `jsonrpc.request.id`, telemetry.gen.ts). */
  clientIdOf(id: string | number): string | number | undefined {
    return typeof id === 'number' ? this.calls.get(id)?.id : undefined;
  }

  async close(): Promise<void> {
    for (const call of this.calls.values()) call.settle(gone);
    this.calls.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isAnswer = !('method' in message);
    const key = isAnswer ? message.id : options?.relatedRequestId;
    const call = typeof key === 'number' ? this.calls.get(key) : undefined;
    if (call === undefined || typeof key !== 'number') return;
    // Unreachable: requests that may send progress or log messages take the SDK's path, which streams them.
    if (!isAnswer) return this.onerror?.(new Error(`dropped ${message.method} of a call on the fast path`));
    this.calls.delete(key);
    if (call.dispatching) return call.settle(undefined);
    // As the SDK's per-request transport: a missing client capability is 400 even after dispatch, any other answer 200.
    const status = 'error' in message && message.error.code === -32021 ? 400 : 200;
    call.settle({ status, json: JSON.stringify({ ...message, id: call.id }) });
  }

  /**
   * Hands `message` to the server under a fresh id; `signal` aborting (client gone, shutdown) cancels the call,
   * answered 499 as by the SDK.
   */
  dispatch(message: JSONRPCRequest, extra: MessageExtraInfo, signal: AbortSignal): Promise<FastAnswer | undefined> {
    if (signal.aborted) return Promise.resolve(gone);
    const key = ++this.next;
    return new Promise((resolve) => {
      const cancel = (): void => {
        if (!this.calls.delete(key)) return;
        resolve(gone);
        // What a client's cancel does on stdio: the SDK aborts the handler's signal and sends nothing for the call.
        const params = { requestId: key, reason: 'The HTTP request was aborted' };
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params }, { classification });
      };
      const call: Call = {
        id: message.id,
        dispatching: true,
        settle: (answer) => {
          signal.removeEventListener('abort', cancel);
          resolve(answer);
        },
      };
      this.calls.set(key, call);
      signal.addEventListener('abort', cancel, { once: true });
      try {
        this.onmessage?.({ ...message, id: key }, extra);
      } finally {
        call.dispatching = false;
      }
    });
  }
}
