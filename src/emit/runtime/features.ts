/**
 * Which optional parts of the runtime a server uses, decided once from the
 * model. The module table (modules.ts) says which modules each feature ships;
 * the types and facade emitters import from a module only then, and the server
 * emitter names it in the server definition, from which the runtime loads it:
 * the runtime asks the registry nothing about which modules exist.
 */
import { needsStore } from '../../model/store.js';
import { announcesChanges } from '../../model/notifications.js';
import type { ServerModel } from '../../model/types.js';
import { namesInheritedMember } from '../validators/inherited.js';

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
  /** `targets: [workers]`: the state store's Durable Object (state-object.gen.ts) and its client. */
  readonly workers: boolean;
  /**
   * A tool schema names a member every object inherits (`constructor`, ...): the validators that read own properties
   * only (own-properties.gen.ts), for such schemas validators.gen.ts does not hold as code.
   */
  readonly ownProperties: boolean;
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
    workers: model.targets.includes('workers'),
    ownProperties: model.tools.some((t) => namesInheritedMember(t.wireInput) || namesInheritedMember(t.wireOutput)),
  };
}
