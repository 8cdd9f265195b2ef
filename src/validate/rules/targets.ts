import { isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

/** `targets: [workers]`: what a Worker cannot serve is refused here, not found at deploy time. */
export function checkTargets(ctx: RuleContext): void {
  if (!isRecord(ctx.data) || !Array.isArray(ctx.data.targets)) return;
  const index = ctx.data.targets.indexOf('workers');
  if (index < 0) return;
  const at = ['targets', index];
  const { transports, protocol, notifications, store } = ctx.data;
  if (!isRecord(transports) || !isRecord(transports.http))
    ctx.report('workers-without-http', at, 'the workers target needs transports.http', 'add transports.http');
  if (isRecord(protocol) && protocol.legacy === 'serve')
    ctx.report(
      'workers-legacy-sessions',
      ['protocol', 'legacy'],
      'legacy: serve keeps 2025-11-25 sessions in memory, which the isolates of a Worker do not share',
      'set protocol.legacy to "reject" for the workers target',
    );
  const announced =
    isRecord(notifications) &&
    ((Array.isArray(notifications.listChanged) && notifications.listChanged.length > 0) ||
      notifications.resourceUpdates === true);
  if (announced)
    ctx.report(
      'workers-notifications',
      ['notifications'],
      'notifications reach only the listeners of the isolate that announces them on Workers',
      'drop notifications, or drop workers from targets',
      'key',
    );
  if (isRecord(store) && stringOr(store.type) === 'redis')
    ctx.report(
      'workers-store-redis',
      ['store', 'type'],
      'the Worker keeps its state in its Durable Object (MCP_GEN_STATE), not in Redis',
      'nothing to change when both targets are meant: Node uses Redis, the Worker its Durable Object',
    );
}
