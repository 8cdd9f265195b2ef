/**
 * The Durable Objects of a Worker (`targets: [workers]`), bound as MCP_GEN_STATE and exported by worker.gen.ts.
 * Workers run in many isolates at once, none sharing memory; a Durable Object is the one place its name lives and
 * handles one request at a time. Two roles, by path:
 *
 * - `/key`: the state store, one object per key (its name): a claim (read, then write if absent) is atomic for every
 *   isolate, as `SET NX` is in Redis. store-durable.gen.ts is its client.
 * - `/publish`, `/events`: the change bus, one object (`mcp-gen:bus`) keeping the last minute of events in memory;
 *   a listener asks for the events after the last it has, and the request waits until there is one (a long poll).
 *   notify-durable.gen.ts is its client. At most once, as Redis pub/sub: an evicted object forgets its events.
 *
 * Shipped with every Worker, so the binding wrangler.jsonc declares always has its class.
 */

/** One operation on a key, as store-durable.gen.ts sends it. */
export type StateOperation =
  | { readonly op: 'claim' | 'put'; readonly value: string; readonly ttlMs: number }
  | { readonly op: 'touch'; readonly ttlMs: number }
  | { readonly op: 'get' | 'remove' | 'ping' };

/** A long poll of the bus: the events after sequence number `after`, or (first poll) published since `since`. */
export type EventsQuery = { readonly after: number | null; readonly since: number };

/** The bus's answer: events (JSON texts) in publish order, and the sequence number to ask after next. */
export type EventsAnswer = { readonly events: readonly string[]; readonly last: number };

/** How long the bus keeps an event, and how long a poll waits for one before it answers empty. */
const keepEventsMs = 60_000;
const pollMs = 20_000;

/** One stored value and when it expires (epoch ms). */
type Entry = { readonly value: string; readonly expires: number };

/** The MCP_GEN_STATE binding as the clients use it (the Workers runtime provides it; the platform env holds it). */
export interface StateNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

/** The object named `name` of the binding `namespace`, for store-durable.gen.ts and notify-durable.gen.ts. */
export const objectOf = (namespace: unknown, name: string): { fetch(request: Request): Promise<Response> } => {
  const bound = namespace as StateNamespace;
  return bound.get(bound.idFromName(name));
};

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
  private readonly log: { readonly seq: number; readonly at: number; readonly text: string }[] = [];
  private seq = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly state: DurableState) {}

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/publish') return this.publish(await request.text());
    if (path === '/events') return this.events((await request.json()) as EventsQuery);
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

  private publish(text: string): Response {
    const now = Date.now();
    this.log.push({ seq: ++this.seq, at: now, text });
    while (this.log.length > 0 && (this.log[0]?.at ?? now) < now - keepEventsMs) this.log.shift();
    for (const wake of [...this.waiting]) wake();
    return Response.json(this.seq);
  }

  private async events(query: EventsQuery): Promise<Response> {
    const found = (): EventsAnswer => ({
      events: this.log
        .filter((event) => (query.after === null ? event.at >= query.since : event.seq > query.after))
        .map((event) => event.text),
      last: this.seq,
    });
    let answer = found();
    if (answer.events.length === 0) {
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiting.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, pollMs);
        this.waiting.add(wake);
      });
      answer = found();
    }
    return Response.json(answer);
  }

  async alarm(): Promise<void> {
    const stored = await this.state.storage.get<Entry>('entry');
    if (stored !== undefined && stored.expires <= Date.now()) await this.state.storage.delete('entry');
    else if (stored !== undefined) await this.state.storage.setAlarm(stored.expires);
  }
}
