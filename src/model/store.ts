/**
 * When a server needs its state store: decided once here, so the registry, the
 * runtime's module list and the generated package.json always agree.
 */
import { announcesChanges } from './notifications.js';
import type { ServerModel } from './types.js';

/**
 * Whether a tool of `model` needs the state store: approvals are used once, idempotency keys keep a ledger, tasks are
 * created there before their id is sent.
 */
export function needsStore(model: ServerModel): boolean {
  return model.tools.some((tool) => tool.approval === 'confirm' || tool.idempotency === 'key' || tool.task !== 'none');
}

/** Whether the generated server talks to Redis (and so depends on its client): its store, or its change bus. */
export function usesRedis(model: ServerModel): boolean {
  return (needsStore(model) || announcesChanges(model.notifications)) && model.store.type === 'redis';
}
