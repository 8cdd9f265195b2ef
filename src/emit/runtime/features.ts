/**
 * Which optional parts of the runtime a server uses, decided once from the
 * model. The runtime emitter ships a module only when its feature is on, the
 * types and facade emitters import from it only then, and the server emitter
 * names it in the server definition, from which the runtime loads it: the
 * runtime asks the registry nothing about which modules exist.
 */
import { needsStore } from '../../model/store.js';
import { announcesChanges } from '../../model/notifications.js';
import type { ServerModel } from '../../model/types.js';
import { compareText } from '../../util/compare.js';

/** The optional runtime features of one server. */
export interface RuntimeFeatures {
  /** Streamable HTTP (http.gen.ts). */
  readonly http: boolean;
  /** What a 2025-11-25 connection adds on any transport (legacy.gen.ts), with `legacy: serve`. */
  readonly legacy: boolean;
  /** The sessionful adapter for 2025-11-25 clients over HTTP (legacy-http.gen.ts), with `legacy: serve`. */
  readonly legacyHttp: boolean;
  /** Bearer or OAuth authorization on HTTP (auth.gen.ts); without HTTP, auth has no effect. */
  readonly auth: boolean;
  /** OAuth JWT verification with jose (oauth.gen.ts). */
  readonly oauth: boolean;
  /** Signed state handles (handles.gen.ts). */
  readonly handles: boolean;
  /** `approval: confirm` and sealed request state (approval.gen.ts). */
  readonly approval: boolean;
  /**
   * The state store of used approvals and idempotency keys (store.gen.ts); `memory` or `redis` (store-redis.gen.ts).
   */
  readonly store: 'none' | 'memory' | 'redis';
  /** `idempotency: key` on some tool (idempotency.gen.ts). */
  readonly idempotency: boolean;
  /** `task: optional | required` on some tool: durable tasks (tasks.gen.ts). */
  readonly tasks: boolean;
  readonly resources: boolean;
  readonly prompts: boolean;
  /** The manifest's `config` variables, read and checked at start (config.gen.ts). */
  readonly config: boolean;
  /** `telemetry: { type: opentelemetry }`: spans and metrics with `@opentelemetry/api` (telemetry.gen.ts). */
  readonly telemetry: boolean;
  /** Tools bound to upstream HTTP requests (upstream.gen.ts, imported by bindings.gen.ts, started at start-up). */
  readonly upstream: boolean;
  /** `notifications` (notify.gen.ts): on this process's bus, or every instance's (`redis`, notify-redis.gen.ts). */
  readonly notify: 'none' | 'memory' | 'redis';
  /** `discovery: search`: search_tools and call_tool instead of the tools in tools/list (search.gen.ts). */
  readonly search: boolean;
}

/** The features `model` uses. */
export function runtimeFeatures(model: ServerModel): RuntimeFeatures {
  const http = model.transports.http !== null;
  const auth = http && model.auth.type !== 'none';
  return {
    http,
    legacy: model.protocol.legacy === 'serve',
    legacyHttp: http && model.protocol.legacy === 'serve',
    auth,
    oauth: auth && model.auth.type === 'oauth',
    handles: model.handles.length > 0,
    approval: model.tools.some((tool) => tool.approval === 'confirm'),
    store: needsStore(model) ? model.store.type : 'none',
    idempotency: model.tools.some((tool) => tool.idempotency === 'key'),
    tasks: model.tools.some((tool) => tool.task !== 'none'),
    resources: model.resources.length > 0,
    prompts: model.prompts.length > 0,
    config: model.config.length > 0,
    telemetry: model.telemetry.type === 'opentelemetry',
    upstream: model.upstream !== null && model.tools.some((tool) => tool.http !== null),
    // Task tools publish their tasks' changes on the bus too (notifications/tasks).
    notify:
      announcesChanges(model.notifications) || model.tools.some((tool) => tool.task !== 'none')
        ? model.store.type
        : 'none',
    search: model.discovery === 'search',
  };
}

/** The runtime modules (templates/runtime/<name>.gen.ts) every server contains. */
const coreModules = ['handler', 'register', 'spec', 'start', 'testing'] as const;

/**
 * One optional runtime module: its file, whether `features` ship it, and its slot in the server definition's
 * `modules` (RuntimeModules in start.gen.ts and the modules that load others), or null when the one module
 * that uses it imports it statically (both always ship together).
 */
interface OptionalModule {
  readonly name: string;
  readonly slot: string | null;
  readonly on: (features: RuntimeFeatures) => boolean;
}

const optionalModules: readonly OptionalModule[] = [
  { name: 'http', slot: 'http', on: (f) => f.http },
  { name: 'http-fast', slot: null, on: (f) => f.http },
  { name: 'listen-streams', slot: null, on: (f) => f.http },
  { name: 'legacy', slot: 'legacy', on: (f) => f.legacy },
  { name: 'legacy-http', slot: 'legacyHttp', on: (f) => f.legacyHttp },
  { name: 'auth', slot: 'auth', on: (f) => f.auth },
  { name: 'oauth', slot: 'oauth', on: (f) => f.oauth },
  { name: 'handles', slot: 'handles', on: (f) => f.handles },
  { name: 'approval', slot: 'approval', on: (f) => f.approval },
  { name: 'keys', slot: null, on: (f) => f.handles || f.approval },
  { name: 'store', slot: 'store', on: (f) => f.store !== 'none' },
  { name: 'store-redis', slot: 'storeRedis', on: (f) => f.store === 'redis' },
  { name: 'idempotency', slot: 'idempotency', on: (f) => f.idempotency },
  { name: 'tasks', slot: 'tasks', on: (f) => f.tasks },
  { name: 'tasks-listen', slot: null, on: (f) => f.tasks },
  { name: 'resources', slot: 'resources', on: (f) => f.resources },
  { name: 'dynamic', slot: null, on: (f) => f.resources || f.prompts },
  { name: 'prompts', slot: 'prompts', on: (f) => f.prompts },
  { name: 'config', slot: 'config', on: (f) => f.config },
  { name: 'telemetry', slot: 'telemetry', on: (f) => f.telemetry },
  { name: 'upstream', slot: 'upstream', on: (f) => f.upstream },
  { name: 'upstream-request', slot: null, on: (f) => f.upstream },
  { name: 'upstream-spec', slot: null, on: (f) => f.upstream },
  { name: 'upstream-wire', slot: null, on: (f) => f.upstream },
  { name: 'notify', slot: 'notify', on: (f) => f.notify !== 'none' },
  { name: 'notify-redis', slot: 'notifyRedis', on: (f) => f.notify === 'redis' },
  { name: 'search', slot: 'search', on: (f) => f.search },
  { name: 'search-index', slot: null, on: (f) => f.search },
];

/** The names of the runtime modules a server with `features` contains, sorted. */
export function runtimeModules(features: RuntimeFeatures): string[] {
  const optional = optionalModules.filter((m) => m.on(features)).map((m) => m.name);
  return [...coreModules, ...optional].sort(compareText);
}

/** The modules the runtime loads through the server definition, as `slot` and file name, sorted by slot. */
export function moduleSlots(features: RuntimeFeatures): { readonly slot: string; readonly name: string }[] {
  return optionalModules
    .flatMap((m) => (m.slot !== null && m.on(features) ? [{ slot: m.slot, name: m.name }] : []))
    .sort((a, b) => compareText(a.slot, b.slot));
}
