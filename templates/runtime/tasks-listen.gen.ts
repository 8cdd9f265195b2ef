/**
 * `notifications/tasks` on `subscriptions/listen` streams (the Tasks extension's `taskIds` filter), over HTTP and
 * stdio (`listenOnStdio`, at the end).
 *
 * Every write of a task (tasks.gen.ts) publishes a `task` event on the change bus (notify.gen.ts): in this process
 * with `store: memory`, on every instance with `store: redis`. The SDK's listen router knows only the four change
 * kinds and drops `taskIds` from the filter, so a listen request that asks for tasks is answered here around it:
 * the SDK serves the request without `taskIds` (its validation, its acknowledgement, its change events), and this
 * module adds the agreed `taskIds` to the acknowledgement and writes each `notifications/tasks` into the same stream,
 * stamped with the subscription id. A stream that asked for tasks only is kept open here after the SDK, having
 * nothing of its own to send, ends it; it ends when the client goes.
 *
 * Agreed are the listed tasks that exist and belong to the caller (another principal's task is not revealed, as on
 * `tasks/get`); a request without the extension in its client capabilities is -32021, as the extension requires.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { BusEvent, ChangeBus } from './notify.gen.js';

export const subscriptionIdKey = 'io.modelcontextprotocol/subscriptionId';

/** A `task` event on the bus: the task's wire form as `tasks/get` answers it, and whose it is. */
export interface TaskEvent extends BusEvent {
  readonly kind: 'task';
  readonly principal: string;
  readonly task: { readonly taskId: string; readonly [field: string]: unknown };
}

const isTaskEvent = (event: BusEvent): event is TaskEvent =>
  event.kind === 'task' &&
  typeof event.principal === 'string' &&
  typeof (event.task as TaskEvent['task'])?.taskId === 'string';

const frame = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/**
 * Serves a listen stream for `agreed` task ids around `sdk` (the SDK's answer to the request without `taskIds`):
 * the acknowledgement gains `taskIds`, and each task event of `principal` for an agreed id is written as
 * `notifications/tasks`. `signal` is the request's: the stream ends when the client goes.
 */
export function mergeTaskStream(
  sdk: Response,
  agreed: readonly string[],
  principal: string,
  subscriptionId: string | number,
  bus: ChangeBus,
  signal: AbortSignal,
): Response {
  const source = sdk.body;
  if (source === null || agreed.length === 0) return sdk;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const ids = new Set(agreed);
  let stop = (): void => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string): void => {
        if (open) controller.enqueue(encoder.encode(text));
      };
      const reader = source.getReader();
      const stopListening = bus.listen(
        (event) => isTaskEvent(event) && event.principal === principal && ids.has(event.task.taskId),
        (event) => {
          const { task } = event as TaskEvent;
          write(
            frame({
              jsonrpc: '2.0',
              method: 'notifications/tasks',
              params: { ...task, _meta: { [subscriptionIdKey]: subscriptionId } },
            }),
          );
        },
      );
      stop = () => {
        if (!open) return;
        open = false;
        stopListening();
        signal.removeEventListener('abort', stop);
        void reader.cancel().catch(() => {});
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      signal.addEventListener('abort', stop, { once: true });
      // The SDK's frames pass through; the first is the acknowledgement, which gains the agreed taskIds.
      let buffer = '';
      let acknowledged = false;
      let sdkListens = true;
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const text = buffer.slice(0, end + 2);
            buffer = buffer.slice(end + 2);
            if (acknowledged) {
              // The SDK closes a stream it has nothing for with the listen result; this one still listens.
              if (!sdkListens && text.includes('"result"')) continue;
              write(text);
              continue;
            }
            acknowledged = true;
            const data = text.slice(text.indexOf('data:') + 5).trim();
            const ack = JSON.parse(data) as { params: { notifications: Record<string, unknown> } };
            sdkListens = Object.keys(ack.params.notifications).length > 0;
            ack.params.notifications = { ...ack.params.notifications, taskIds: [...agreed] };
            write(frame(ack));
          }
        }
        // A stream that asked for tasks only stays open; http.gen.ts's listen streams keep it alive.
        if (sdkListens) stop();
      })().catch(() => stop());
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { status: sdk.status, headers: sdk.headers });
}

/** A listen request that asks for `taskIds` (tasks.gen.ts reads it): what to forward, and any refusal. */
export interface AskedTasks {
  readonly id: string | number;
  readonly taskIds: readonly string[];
  /** The request without `taskIds`, for the SDK. */
  readonly forwarded: Record<string, unknown>;
  readonly refusal: { readonly code: number; readonly message: string; readonly data?: unknown } | null;
}

/**
 * stdio: `transport` with task notifications on its listen subscriptions. The SDK's stdio listen router keeps a
 * subscription for the rest of the filter (and forwards what it does not know as is), so here a listen request that
 * asks for tasks is held until `ask` has agreed its ids (the tasks it may hear of), then forwarded without them;
 * its acknowledgement gains them, and each task event for them is sent stamped with the subscription id, until the
 * client cancels the subscription (`notifications/cancelled`) or the connection closes.
 */
export function listenOnStdio(
  transport: Transport,
  bus: ChangeBus,
  ask: (message: unknown) => Promise<AskedTasks> | null,
): Transport {
  const subscriptions = new Map<unknown, ReadonlySet<string>>();
  const outer: Transport = {
    start: () => transport.start(),
    close: () => transport.close(),
    send(message, options) {
      const note = message as {
        method?: string;
        params?: { _meta?: Record<string, unknown>; notifications?: Record<string, unknown> };
      };
      const agreed = subscriptions.get(note.params?._meta?.[subscriptionIdKey]);
      if (note.method !== 'notifications/subscriptions/acknowledged' || agreed === undefined || agreed.size === 0)
        return transport.send(message, options);
      const notifications = { ...note.params?.notifications, taskIds: [...agreed] };
      return transport.send({ ...message, params: { ...note.params, notifications } } as JSONRPCMessage, options);
    },
  };
  const failed = (error: unknown): void => outer.onerror?.(error instanceof Error ? error : new Error(String(error)));
  const stop = bus.listen(
    (event) => isTaskEvent(event) && event.principal === 'anonymous',
    (event) => {
      const { task } = event as TaskEvent;
      for (const [id, ids] of subscriptions)
        if (ids.has(task.taskId))
          transport
            .send({
              jsonrpc: '2.0',
              method: 'notifications/tasks',
              params: { ...task, _meta: { [subscriptionIdKey]: id } },
            })
            .catch(failed);
    },
  );
  transport.onclose = () => {
    stop();
    outer.onclose?.();
  };
  transport.onerror = (error) => outer.onerror?.(error);
  transport.onmessage = (message, extra) => {
    const m = message as { method?: string; params?: { requestId?: unknown } };
    if (m.method === 'notifications/cancelled') subscriptions.delete(m.params?.requestId);
    const asked = ask(message);
    if (asked === null) return outer.onmessage?.(message, extra);
    asked
      .then((request) => {
        if (request.refusal !== null)
          return transport.send({ jsonrpc: '2.0', id: request.id, error: request.refusal } as JSONRPCMessage);
        subscriptions.set(request.id, new Set(request.taskIds));
        outer.onmessage?.(request.forwarded as unknown as JSONRPCMessage, extra);
      })
      .catch(failed);
  };
  return outer;
}
