import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleSlots, type RuntimeFeatures } from '../../src/emit/runtime/index.js';
import type { RuntimeModules } from '../../templates/runtime/start.gen.js';
import { repoRoot } from '../support/golden.js';

// Every slot filled with its module, as server.gen.ts fills the slots of a server with every feature:
// `npm run typecheck` fails when a module no longer matches its slot, or a slot has no module. oauth.gen.ts
// compiles only under the templates' own options (templates/tsconfig.json, which also checks it against
// its slot through its `JwtVerifierFactory` annotation), so it is left out here.
const every: Required<Omit<RuntimeModules, 'oauth'>> = {
  approval: () => import('../../templates/runtime/approval.gen.js'),
  auth: () => import('../../templates/runtime/auth.gen.js'),
  config: () => import('../../templates/runtime/config.gen.js'),
  handles: () => import('../../templates/runtime/handles.gen.js'),
  http: () => import('../../templates/runtime/http.gen.js'),
  idempotency: () => import('../../templates/runtime/idempotency.gen.js'),
  legacy: () => import('../../templates/runtime/legacy.gen.js'),
  legacyHttp: () => import('../../templates/runtime/legacy-http.gen.js'),
  notify: () => import('../../templates/runtime/notify.gen.js'),
  notifyDurable: () => import('../../templates/runtime/notify-durable.gen.js'),
  notifyRedis: () => import('../../templates/runtime/notify-redis.gen.js'),
  prompts: () => import('../../templates/runtime/prompts.gen.js'),
  resources: () => import('../../templates/runtime/resources.gen.js'),
  search: () => import('../../templates/runtime/search.gen.js'),
  store: () => import('../../templates/runtime/store.gen.js'),
  storeDurable: () => import('../../templates/runtime/store-durable.gen.js'),
  storeRedis: () => import('../../templates/runtime/store-redis.gen.js'),
  tasks: () => import('../../templates/runtime/tasks.gen.js'),
  telemetry: () => import('../../templates/runtime/telemetry.gen.js'),
  upstream: () => import('../../templates/runtime/upstream.gen.js'),
};

const allFeatures: RuntimeFeatures = {
  http: true,
  legacy: true,
  legacyHttp: true,
  auth: true,
  oauth: true,
  handles: true,
  approval: true,
  store: 'redis',
  idempotency: true,
  tasks: true,
  resources: true,
  prompts: true,
  config: true,
  telemetry: true,
  upstream: true,
  notify: 'redis',
  search: true,
  workers: true,
  ownProperties: true,
};

describe('runtime module slots', () => {
  it("the server emitter's slots are RuntimeModules' slots, each naming a runtime template", () => {
    const slots = moduleSlots(allFeatures);
    expect(slots.map((s) => s.slot)).toEqual([...Object.keys(every), 'oauth'].sort());
    const missing = slots.filter((s) => !existsSync(path.join(repoRoot, 'templates', 'runtime', `${s.name}.gen.ts`)));
    expect(missing).toEqual([]);
  });

  it('a server without optional features has no slots', () => {
    const none: RuntimeFeatures = {
      ...allFeatures,
      http: false,
      legacy: false,
      legacyHttp: false,
      auth: false,
      oauth: false,
      handles: false,
      approval: false,
      store: 'none',
      idempotency: false,
      tasks: false,
      resources: false,
      prompts: false,
      config: false,
      telemetry: false,
      upstream: false,
      notify: 'none',
      search: false,
      workers: false,
    };
    expect(moduleSlots(none)).toEqual([]);
    expect(moduleSlots({ ...none, store: 'memory', approval: true })).toEqual([
      { slot: 'approval', name: 'approval' },
      { slot: 'store', name: 'store' },
    ]);
  });
});
