/**
 * Change notifications (manifest `notifications`): the bus every change travels on, and its delivery to clients.
 *
 * The bus (`ChangeBus`) is small on purpose, so other runtime features (the Tasks extension's `notifications/tasks`)
 * can ride on it:
 *
 * - `publish(event)`: `event` is a JSON object with a string `kind`; it reaches every listener of every instance
 *   (`store: redis`, through Redis pub/sub, notify-redis.gen.ts) or of this process (`store: memory`). It never
 *   throws and never waits: a bus that cannot deliver logs the failure on stderr.
 * - `listen(filter, listener)`: calls `listener` with each event published after the call for which `filter` is
 *   true, on this instance; returns an idempotent `stop`. Events arrive in publish order per publisher; a listener
 *   that throws does not stop the others.
 * - `close()`: ends the bus's connections (at shutdown).
 *
 * Kinds the runtime publishes: `tools_list_changed`, `prompts_list_changed`, `resources_list_changed`, and
 * `resource_updated` with `uri` (the SDK's ServerEvent shapes); `task` with `principal` and `task` (tasks.gen.ts,
 * delivered by tasks-listen.gen.ts, never by the code below). Delivery:
 *
 * - 2026-07-28 over HTTP: the SDK's listen router serves `subscriptions/listen` streams from `sdkEventBus(bus)`.
 * - 2026-07-28 over stdio, and every 2025-11-25 session (stdio, HTTP): `attachChanges` sends the connection's server
 *   the matching notification; on stdio the SDK stamps it onto the listen subscriptions that asked for it, a legacy
 *   session gets list changes as they come and `notifications/resources/updated` for the URIs it subscribed to
 *   (`resources/subscribe`).
 *
 * Handlers and `setup` publish through `Notify` (`ctx.notify`, `tools.notify`), which refuses a change the manifest
 * did not declare: the capabilities promise exactly the declared ones.
 */
import type { Notification, Server, ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import { type ListName, type Notify, StartupError, undeclaredNotify } from './handler.gen.js';
import type { NotificationsSpec } from './spec.gen.js';
import type { BusEvent, ChangeBus, Changes, Lazy, Startup } from './startup.gen.js';

export type { BusEvent, ChangeBus } from './startup.gen.js';

declare module './start.gen.js' {
  interface RuntimeModules {
    /** notify-redis.gen.ts, with `store: redis`. */
    readonly notifyRedis?: Lazy<{
      readonly connectRedisBus: (url: string, channel: string, log: (message: string) => void) => Promise<ChangeBus>;
    }>;
    /** notify-durable.gen.ts, with `targets: [workers]`: the Worker's bus, through its Durable Object. */
    readonly notifyDurable?: Lazy<{
      readonly durableObjectBus: (namespace: unknown, server: string, log: (message: string) => void) => ChangeBus;
    }>;
  }
}

/** The in-process bus: delivery is synchronous, to the listeners registered when `publish` runs. */
export class MemoryBus implements ChangeBus {
  private readonly listeners = new Set<(event: BusEvent) => void>();

  constructor(private readonly log: (message: string) => void) {}

  publish(event: BusEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.log(`notify: a listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  listen(filter: (event: BusEvent) => boolean, listener: (event: BusEvent) => void): () => void {
    const entry = (event: BusEvent): void => {
      if (filter(event)) listener(event);
    };
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  /** Listeners registered now (tests). */
  get size(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

const listKinds: Readonly<Record<ListName, ServerEvent['kind']>> = {
  tools: 'tools_list_changed',
  prompts: 'prompts_list_changed',
  resources: 'resources_list_changed',
};
const serverKinds: ReadonlySet<string> = new Set([...Object.values(listKinds), 'resource_updated']);

/** True for the four change events the listen router knows (other kinds belong to extensions). */
const isServerEvent = (event: BusEvent): boolean =>
  serverKinds.has(event.kind) && (event.kind !== 'resource_updated' || typeof event.uri === 'string');

/** The SDK's view of `bus` for `createMcpHandler({ bus })`: its listen router subscribes here. */
export function sdkEventBus(bus: ChangeBus): ServerEventBus {
  return {
    publish: (event) => bus.publish(event),
    subscribe: (listener) => bus.listen(isServerEvent, (event) => listener(event as unknown as ServerEvent)),
  };
}

/** `ctx.notify`: publishes the declared changes; anything else is a mistake the manifest can fix (it throws). */
export function notifierOf(bus: ChangeBus, spec: NotificationsSpec): Notify {
  return {
    resourceUpdated(uri) {
      if (!spec.resourceUpdates) undeclaredNotify.resourceUpdated(uri);
      if (typeof uri !== 'string' || uri === '') throw new TypeError('resourceUpdated needs the URI that changed');
      bus.publish({ kind: 'resource_updated', uri });
    },
    listChanged(list) {
      if (!spec.listChanged.includes(list)) undeclaredNotify.listChanged(list);
      bus.publish({ kind: listKinds[list] });
    },
  };
}

/** The notification a connection's server sends for `event`, or null when the event is not for it. */
function notificationFor(event: BusEvent, subscribed: ReadonlySet<string> | null): Notification | null {
  if (event.kind === 'resource_updated') {
    const uri = event.uri as string;
    // A legacy session hears only of the URIs it subscribed to; the stdio listen router filters modern ones.
    return subscribed === null || subscribed.has(uri)
      ? { method: 'notifications/resources/updated', params: { uri } }
      : null;
  }
  const list = event.kind.slice(0, -'_list_changed'.length);
  return { method: `notifications/${list}/list_changed` };
}

/**
 * Delivers the bus's changes to one connection's server (module comment) until it closes. A legacy connection also
 * gets `resources/subscribe` and `unsubscribe`, when the server declares `resources.subscribe`.
 */
export function attachChanges(server: Server, bus: ChangeBus, legacy: boolean, log: (message: string) => void): void {
  const capabilities = server.getCapabilities();
  let subscribed: Set<string> | null = null;
  if (legacy && capabilities.resources?.subscribe === true) {
    const uris = new Set<string>();
    subscribed = uris;
    server.setRequestHandler('resources/subscribe', async (request) => {
      uris.add(request.params.uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      uris.delete(request.params.uri);
      return {};
    });
  }
  const stop = bus.listen(isServerEvent, (event) => {
    const message = notificationFor(event, subscribed);
    if (message === null || server.transport === undefined) return;
    server.notification(message).catch((error: Error) => log(`notify: ${message.method}: ${error.message}`));
  });
  const closed = server.onclose;
  server.onclose = () => {
    stop();
    closed?.();
  };
}

/**
 * The bus: the Worker's Durable Object on Workers (notify-durable.gen.ts), Redis pub/sub with `store: redis`
 * (notify-redis.gen.ts), else this process's.
 */
export async function openChanges(startup: Startup): Promise<Changes> {
  const { registry, modules, environment, log } = startup;
  let bus: ChangeBus;
  // On Workers the Durable Object relays every event: an isolate's memory reaches neither other isolates nor requests.
  const durable = startup.platform.MCP_GEN_STATE;
  if (durable !== undefined && modules.notifyDurable !== undefined) {
    bus = (await modules.notifyDurable()).durableObjectBus(durable, registry.server.name, log);
  } else if (registry.store.type === 'redis' && modules.notifyRedis !== undefined) {
    const url = environment[registry.store.urlEnv] ?? '';
    if (url === '')
      throw new StartupError(
        `${registry.store.urlEnv} is not set; set it to the Redis URL every instance shares ` +
          '(e.g. redis://127.0.0.1:6379)',
      );
    const channel = `mcp-gen:${registry.server.name}:changes`;
    bus = await (await modules.notifyRedis()).connectRedisBus(url, channel, log);
  } else bus = new MemoryBus(log);
  return {
    bus,
    events: sdkEventBus(bus),
    notify: notifierOf(bus, registry.notifications),
    attach: (server, legacy) => attachChanges(server, bus, legacy, log),
  };
}
