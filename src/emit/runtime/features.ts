/**
 * Which optional parts of the runtime a server uses, decided once from the
 * model. The runtime emitter ships a module only when its feature is on, the
 * types and facade emitters import from it only then, and the runtime itself
 * loads each module under the same conditions, read from the registry.
 */
import { needsStore } from '../../model/store.js';
import type { ServerModel } from '../../model/types.js';
import { compareText } from '../../util/compare.js';

/** The optional runtime features of one server. */
export interface RuntimeFeatures {
  /** Streamable HTTP (http.gen.ts). */
  readonly http: boolean;
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
  readonly resources: boolean;
  readonly prompts: boolean;
}

/** The features `model` uses. */
export function runtimeFeatures(model: ServerModel): RuntimeFeatures {
  const http = model.transports.http !== null;
  const auth = http && model.auth.type !== 'none';
  return {
    http,
    legacyHttp: http && model.protocol.legacy === 'serve',
    auth,
    oauth: auth && model.auth.type === 'oauth',
    handles: model.handles.length > 0,
    approval: model.tools.some((tool) => tool.approval === 'confirm'),
    store: needsStore(model) ? model.store.type : 'none',
    idempotency: model.tools.some((tool) => tool.idempotency === 'key'),
    resources: model.resources.length > 0,
    prompts: model.prompts.length > 0,
  };
}

/** The runtime modules (templates/runtime/<name>.gen.ts) every server contains. */
const coreModules = ['handler', 'register', 'spec', 'start'] as const;

/** The names of the runtime modules a server with `features` contains, sorted. */
export function runtimeModules(features: RuntimeFeatures): string[] {
  const optional: [boolean, string][] = [
    [features.http, 'http'],
    [features.http, 'http-fast'],
    [features.legacyHttp, 'legacy-http'],
    [features.auth, 'auth'],
    [features.oauth, 'oauth'],
    [features.handles, 'handles'],
    [features.approval, 'approval'],
    [features.handles || features.approval, 'keys'],
    [features.store !== 'none', 'store'],
    [features.store === 'redis', 'store-redis'],
    [features.idempotency, 'idempotency'],
    [features.resources, 'resources'],
    [features.prompts, 'prompts'],
  ];
  return [...coreModules, ...optional.filter(([on]) => on).map(([, name]) => name)].sort(compareText);
}
