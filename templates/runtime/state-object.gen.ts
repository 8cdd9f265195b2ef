/**
 * The Durable Object of the state store on Cloudflare Workers (`targets: [workers]`), bound as MCP_GEN_STATE and
 * exported by worker.gen.ts: one object per key, whose name is the key. Workers run in many isolates at once, none
 * sharing memory; a Durable Object is the one place its key lives and handles one request at a time, so a claim (read,
 * then write if absent) is atomic for every isolate, as `SET NX` is in Redis. store-durable.gen.ts is its client.
 * Shipped with every Worker, so the binding wrangler.jsonc declares always has its class.
 */

/** One operation on a key, as store-durable.gen.ts sends it. */
export type StateOperation =
  | { readonly op: 'claim' | 'put'; readonly value: string; readonly ttlMs: number }
  | { readonly op: 'touch'; readonly ttlMs: number }
  | { readonly op: 'get' | 'remove' | 'ping' };

/** One stored value and when it expires (epoch ms). */
type Entry = { readonly value: string; readonly expires: number };

/** What this module needs of a Durable Object's state (the Workers runtime provides it). */
export interface DurableState {
  readonly storage: {
    get<T>(key: string): Promise<T | undefined>;
    put(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<boolean>;
    setAlarm(at: number): Promise<void>;
  };
}

/**
 * The Durable Object behind one key (its name is the key). Each operation runs to its end before the next starts:
 * the runtime's input gate holds other requests while storage is awaited, so a claim cannot interleave with another.
 * An alarm deletes the value once it expires; a read before that sees it as absent.
 */
export class McpGenState {
  constructor(private readonly state: DurableState) {}

  async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as StateOperation;
    const { storage } = this.state;
    const now = Date.now();
    const stored = await storage.get<Entry>('entry');
    const live = stored !== undefined && stored.expires > now ? stored : null;
    const keep = async (entry: Entry): Promise<void> => {
      await storage.put('entry', entry);
      await storage.setAlarm(entry.expires);
    };
    switch (body.op) {
      case 'claim':
        if (live !== null) return Response.json(false);
        await keep({ value: body.value, expires: now + body.ttlMs });
        return Response.json(true);
      case 'put':
        await keep({ value: body.value, expires: now + body.ttlMs });
        return Response.json(null);
      case 'touch':
        if (live !== null) await keep({ value: live.value, expires: now + body.ttlMs });
        return Response.json(null);
      case 'get':
        return Response.json(live?.value ?? null);
      case 'remove':
        await storage.delete('entry');
        return Response.json(null);
      default:
        return Response.json(null);
    }
  }

  async alarm(): Promise<void> {
    const stored = await this.state.storage.get<Entry>('entry');
    if (stored !== undefined && stored.expires <= Date.now()) await this.state.storage.delete('entry');
    else if (stored !== undefined) await this.state.storage.setAlarm(stored.expires);
  }
}
