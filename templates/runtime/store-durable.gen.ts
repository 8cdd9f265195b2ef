/**
 * The state store on Cloudflare Workers (`targets: [workers]`): each key is the Durable Object of that name
 * (state-object.gen.ts), so two approvals of one call, or two retries of one idempotency key, run the handler once
 * whichever isolates they reach. KV is eventually consistent and could claim a key twice: it is not offered.
 * It fails closed as the Redis store does: a Durable Object that does not answer is a StoreUnavailableError.
 */
import { objectOf, type StateOperation } from './state-object.gen.js';
import { StoreUnavailableError, type StateStore } from './store.gen.js';

/** The store on `namespace`: each key is the Durable Object of that name. */
export function durableObjectStore(namespace: unknown): StateStore {
  const label = 'durable object MCP_GEN_STATE';
  const send = async <T>(key: string, operation: StateOperation): Promise<T> => {
    let response: Response;
    try {
      response = await objectOf(namespace, key).fetch(
        new Request('https://state.invalid/key', { method: 'POST', body: JSON.stringify(operation) }),
      );
    } catch (error) {
      throw new StoreUnavailableError(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new StoreUnavailableError(`${label}: answered ${response.status}`);
    return (await response.json()) as T;
  };
  const ttl = (ms: number): number => Math.max(1, Math.ceil(ms));
  return {
    label,
    claim: (key, value, ttlMs) => send<boolean>(key, { op: 'claim', value, ttlMs: ttl(ttlMs) }),
    get: (key) => send<string | null>(key, { op: 'get' }),
    put: (key, value, ttlMs) => send<null>(key, { op: 'put', value, ttlMs: ttl(ttlMs) }).then(() => undefined),
    touch: (key, ttlMs) => send<null>(key, { op: 'touch', ttlMs: ttl(ttlMs) }).then(() => undefined),
    remove: (key) => send<null>(key, { op: 'remove' }).then(() => undefined),
    ping: () => send<null>('mcp-gen:ping', { op: 'ping' }).then(() => undefined),
  };
}
