/**
 * The change bus over Redis pub/sub (`store: redis` with `notifications`): what one instance publishes reaches the
 * listeners of every instance. Subscribing takes a connection of its own (a subscribed Redis connection can do nothing
 * else), so there are two: one publishes, one listens on the server's channel.
 *
 * This instance's own events are delivered at once, in process, and skipped when Redis echoes them back (each
 * message carries the publishing instance's id), so a listener on the publishing instance hears them even while Redis
 * is down. Pub/sub is at most once: an instance that is disconnected when an event is published never hears of it.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { type BusEvent, type ChangeBus, MemoryBus } from './notify.gen.js';
import { redact } from './log.gen.js';

/** How long connecting may take before the server starts with the bus down (it keeps reconnecting). */
const redisTimeoutMs = 5_000;

/** Connects both connections to `url` (waiting at most `redisTimeoutMs` for the subscription) and serves `channel`. */
export async function connectRedisBus(
  url: string,
  channel: string,
  log: (message: string) => void,
): Promise<ChangeBus> {
  const local = new MemoryBus(log);
  const origin = randomUUID();
  const options = {
    maxRetriesPerRequest: 0,
    connectTimeout: redisTimeoutMs,
    retryStrategy: (times: number) => Math.min(times * 200, 2_000),
  };
  const publisher = new Redis(url, { ...options, enableOfflineQueue: false });
  // The subscriber re-subscribes after each reconnect (ioredis does so for a connection in subscriber mode).
  const subscriber = new Redis(url, options);
  let healthy: boolean | undefined;
  const health = (ok: boolean, reason = ''): void => {
    if (healthy !== ok)
      log(ok ? 'notify: redis bus is up' : `notify: redis bus is down (${reason}); changes stay local`);
    healthy = ok;
  };
  for (const client of [publisher, subscriber]) {
    // ioredis echoes what it could not connect to: a mistyped URL with its password.
    client.on('error', (error: Error) => health(false, redact(error.message)));
    // Neither connection may keep a stdio server alive once its input closed.
    client.on('connect', () => client.stream.unref());
  }
  subscriber.on('message', (_channel: string, text: string) => {
    try {
      const { from, event } = JSON.parse(text) as { from: string; event: BusEvent };
      if (from !== origin && typeof event?.kind === 'string') local.publish(event);
    } catch {
      log('notify: ignored a malformed message on the redis bus');
    }
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    subscriber.subscribe(channel).then(
      () => health(true),
      (error: Error) => health(false, redact(error.message)),
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, redisTimeoutMs);
    }),
  ]);
  clearTimeout(timer);
  return {
    publish(event) {
      local.publish(event);
      publisher
        .publish(channel, JSON.stringify({ from: origin, event }))
        .catch((error: Error) => log(`notify: ${event.kind} not published to other instances: ${error.message}`));
    },
    listen: (filter, listener) => local.listen(filter, listener),
    async close() {
      await local.close();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
