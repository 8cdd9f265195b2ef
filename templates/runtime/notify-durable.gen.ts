/**
 * The change bus on Cloudflare Workers (`targets: [workers]` with `notifications` or task tools): the Durable Object
 * named `mcp-gen:bus` (state-object.gen.ts) relays every event to the listeners of every isolate. Nothing is
 * delivered in the isolate itself: a Worker may not write to another request's stream, and each listener is a listen
 * stream's own request, so each listener polls the object from its own request (a long poll: the object answers as
 * soon as an event arrives). Its first poll asks for the events published since the listener was registered, so an
 * event published while that poll is on its way is not lost. At most once, as Redis pub/sub.
 */
import type { BusEvent, ChangeBus } from './notify.gen.js';
import { type EventsAnswer, type EventsQuery, objectOf } from './state-object.gen.js';

/** The bus on `namespace`'s object `mcp-gen:<server>:bus`. */
export function durableObjectBus(namespace: unknown, server: string, log: (message: string) => void): ChangeBus {
  // A stub per use: a Worker may not use an I/O object of one request in another.
  const bus = (): { fetch(request: Request): Promise<Response> } => objectOf(namespace, `mcp-gen:${server}:bus`);
  const published = new Set<Promise<unknown>>();
  const stops = new Set<() => void>();
  return {
    publish(event) {
      const sent = bus()
        .fetch(new Request('https://bus.invalid/publish', { method: 'POST', body: JSON.stringify(event) }))
        .catch((error: unknown) => log(`notify: ${event.kind} not published: ${String(error)}`))
        .finally(() => published.delete(sent));
      published.add(sent);
    },
    listen(filter, listener) {
      const stopped = new AbortController();
      let query: EventsQuery = { after: null, since: Date.now() };
      const poll = async (): Promise<void> => {
        while (!stopped.signal.aborted) {
          try {
            const request = new Request('https://bus.invalid/events', {
              method: 'POST',
              body: JSON.stringify(query),
              signal: stopped.signal,
            });
            const answer = (await (await bus().fetch(request)).json()) as EventsAnswer;
            query = { after: answer.last, since: query.since };
            for (const text of answer.events) {
              const event = JSON.parse(text) as BusEvent;
              if (!stopped.signal.aborted && filter(event)) listener(event);
            }
          } catch (error) {
            if (stopped.signal.aborted) return;
            log(`notify: the bus did not answer (${String(error)}); trying again`);
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
        }
      };
      void poll();
      const stop = (): void => {
        stopped.abort();
        stops.delete(stop);
      };
      stops.add(stop);
      return stop;
    },
    // A Worker keeps its isolate until its publishes have left (waitUntil): the answer may go out before them.
    settled: async () => void (await Promise.allSettled([...published])),
    async close() {
      for (const stop of [...stops]) stop();
    },
  };
}
