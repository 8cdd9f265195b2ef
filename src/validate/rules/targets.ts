import { isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

/** `targets: [workers]`: what a Worker cannot serve is refused here, not found at deploy time. */
export function checkTargets(ctx: RuleContext): void {
  if (!isRecord(ctx.data) || !Array.isArray(ctx.data.targets)) return;
  const index = ctx.data.targets.indexOf('workers');
  if (index < 0) return;
  const at = ['targets', index];
  const { transports, protocol, store } = ctx.data;
  if (!isRecord(transports) || !isRecord(transports.http))
    ctx.report('workers-without-http', at, 'the workers target needs transports.http', 'add transports.http');
  // legacy: serve is the default: a manifest that does not say reject serves 2025-11-25 sessions.
  const legacy = isRecord(protocol) ? protocol.legacy : undefined;
  if (legacy === 'serve' || legacy === undefined)
    ctx.report(
      'workers-legacy-sessions',
      legacy === undefined ? at : ['protocol', 'legacy'],
      `${legacy === undefined ? 'protocol.legacy is "serve" by default; it' : 'legacy: serve'} keeps 2025-11-25 ` +
        'sessions in memory, which the isolates of a Worker do not share',
      'set protocol.legacy to "reject" for the workers target',
    );
  if (isRecord(store) && stringOr(store.type) === 'redis')
    ctx.report(
      'workers-store-redis',
      ['store', 'type'],
      'the Worker keeps its state in its Durable Object (MCP_GEN_STATE), not in Redis',
      'nothing to change when both targets are meant: Node uses Redis, the Worker its Durable Object',
    );
}
