import type { CodeInfo } from './code-info.js';

/** Codes of `targets`: what a Cloudflare Worker cannot serve is refused when the project is generated. */
export const targetCodes = {
  'workers-without-http': {
    severity: 'error',
    title: 'Workers target without an HTTP transport',
    cause: '`targets` names `workers`, but the manifest has no `transports.http`: a Worker answers HTTP requests only.',
    fix: "Add `transports.http` (its `path` is the Worker's MCP endpoint), or drop `workers` from `targets`.",
  },
  'workers-legacy-sessions': {
    severity: 'error',
    title: 'Legacy sessions on Workers',
    cause:
      '`protocol.legacy: serve` answers 2025-11-25 clients with sessions kept in memory, but a Worker runs in many ' +
      'isolates that share no memory: the next request of a session may reach an isolate that never saw it.',
    fix:
      'Set `protocol.legacy: reject` (2026-07-28 is stateless and needs no session), or serve legacy clients from ' +
      'the Node target only, in a manifest of its own.',
  },
  'workers-store-redis': {
    severity: 'warning',
    title: 'Redis store on Workers',
    cause:
      '`store.type: redis` is for the Node target; a Worker reaches no Redis server over TCP and keeps its state in ' +
      'its Durable Object (MCP_GEN_STATE) instead, with the same exactly-once claims.',
    fix: 'Nothing, when both targets are meant: the Node server uses Redis and the Worker its Durable Object.',
  },
} as const satisfies Readonly<Record<string, CodeInfo>>;
