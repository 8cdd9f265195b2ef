/**
 * The Redis state store (`store: { type: redis }`), shared by every instance of the server and kept
 * across restarts. A claim is one `SET key value NX PX ttl`, atomic in Redis, so two instances can
 * never both claim one approval or one idempotency key.
 *
 * It fails closed: commands are never queued while disconnected and never resent after a reconnect
 * (a command whose answer was lost counts as failed, so at worst an approval is spent without running).
 * Every failure is a StoreUnavailableError; the client keeps reconnecting in the background.
 */
import { Redis } from 'ioredis';
import { redact } from './log.gen.js';
import { StoreUnavailableError, type StateStore } from './store.gen.js';

/** How long a command may take, and a connection attempt, before the call fails closed. */
export const redisTimeoutMs = 5_000;

/** Host and port of `url`, without credentials, for log lines. */
function safeLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `redis ${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'redis (unparsable URL)';
  }
}

/** Connects to `url` (waiting at most `redisTimeoutMs`) and logs whether it answered; the server starts either way. */
export async function connectRedisStore(url: string, log: (message: string) => void): Promise<StateStore> {
  const label = safeLabel(url);
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: redisTimeoutMs,
    commandTimeout: redisTimeoutMs,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let healthy: boolean | undefined;
  // One line per change of health, not one per reconnect attempt.
  client.on('ready', () => {
    if (healthy !== true) log(`store: ${label} is reachable`);
    healthy = true;
  });
  // ioredis echoes what it could not connect to: a mistyped URL with its password (`connect ENOENT //u:pw@h`).
  client.on('error', (error: Error) => {
    if (healthy !== false)
      log(
        `store: ${label} is unreachable (${redact(error.message)}); ` +
          'calls that need the store fail closed until it is back',
      );
    healthy = false;
  });
  // The connection alone must not keep a stdio server alive once its input closed.
  client.on('connect', () => client.stream.unref());
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, redisTimeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', done);
    client.once('error', done);
  });

  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (error) {
      throw new StoreUnavailableError(`${label}: ${redact(error instanceof Error ? error.message : String(error))}`);
    }
  };
  const ttl = (ms: number): number => Math.max(1, Math.ceil(ms));
  return {
    label,
    claim: (key, value, ttlMs) => run(async () => (await client.set(key, value, 'PX', ttl(ttlMs), 'NX')) === 'OK'),
    get: (key) => run(() => client.get(key)),
    put: (key, value, ttlMs) => run(async () => void (await client.set(key, value, 'PX', ttl(ttlMs)))),
    // PEXPIRE only extends a live key: a lapsed claim stays lapsed.
    touch: (key, ttlMs) => run(async () => void (await client.pexpire(key, ttl(ttlMs)))),
    remove: (key) => run(async () => void (await client.del(key))),
    ping: () => run(async () => void (await client.ping())),
  };
}
