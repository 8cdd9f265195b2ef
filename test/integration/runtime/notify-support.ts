import { envelope, limits, version } from './harness.js';

// Reading server-to-client messages off an open SSE response (a subscriptions/listen stream, a legacy GET stream)
// with bounded waits.

/** The JSON-RPC messages of an open SSE response, as they arrive. */
export interface MessageStream {
  readonly messages: Record<string, any>[];
  /** Resolves with the first message (from the start) that `match` accepts; rejects after `timeoutMs`. */
  next(match: (message: Record<string, any>) => boolean, timeoutMs?: number): Promise<Record<string, any>>;
  close(): void;
}

/** Reads `response`'s SSE body in the background. */
export function readStream(response: Response, abort: AbortController): MessageStream {
  const messages: Record<string, any>[] = [];
  const waiters = new Set<() => void>();
  const reader = response.body?.getReader();
  void (async () => {
    if (reader === undefined) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('');
          buffer = buffer.slice(end + 2);
          if (data !== '') messages.push(JSON.parse(data) as Record<string, any>);
          for (const wake of waiters) wake();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    messages,
    next: (match, timeoutMs = limits.requestMs) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = messages.find(match);
          if (found === undefined) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      }),
    close: () => abort.abort(),
  };
}

/** POSTs a 2026-07-28 `subscriptions/listen` request with `notifications` as its filter (and `token` as bearer). */
export function postListen(
  url: URL,
  notifications: Record<string, unknown>,
  id: string | number,
  abort: AbortController,
  capabilities: Record<string, unknown> = {},
  token?: string,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': version,
      'mcp-method': 'subscriptions/listen',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { _meta: envelope(capabilities), notifications },
    }),
    signal: abort.signal,
  });
}

/** Opens a 2026-07-28 `subscriptions/listen` stream with `notifications` as its filter; resolves once acknowledged. */
export async function listen(
  url: URL,
  notifications: Record<string, unknown>,
  id: string | number = 'listen-1',
  capabilities: Record<string, unknown> = {},
): Promise<MessageStream> {
  const abort = new AbortController();
  const response = await postListen(url, notifications, id, abort, capabilities);
  const stream = readStream(response, abort);
  await stream.next((m) => m.method === 'notifications/subscriptions/acknowledged');
  return stream;
}
