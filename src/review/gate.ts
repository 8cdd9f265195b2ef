/**
 * The server-designer acceptance gate: seven items and the hard rejects, each
 * PASS, WARN or FAIL with its reason and the manifest place that causes it.
 * Structural guarantees of the generated runtime PASS by construction and say
 * where the guarantee lives; everything the manifest decides is judged from
 * the lint and validation findings.
 */
import type { DiagnosticCode, Finding } from '../diagnostics/index.js';
import type { ServerModel } from '../model/types.js';
import { defaultTools } from '../model/toolset.js';

export type GateStatus = 'PASS' | 'WARN' | 'FAIL';

/** One line of the gate. `cause` is the first finding behind a WARN or FAIL. */
export interface GateItem {
  readonly id: string;
  readonly title: string;
  readonly status: GateStatus;
  readonly reason: string;
  readonly cause: Finding | null;
}

interface Rule {
  readonly id: string;
  readonly title: string;
  readonly fail: readonly DiagnosticCode[];
  readonly warn: readonly DiagnosticCode[];
  /** `tokens`: what the default tools/list costs. */
  readonly pass: (model: ServerModel, tokens: number) => string;
}

const rules: readonly Rule[] = [
  {
    id: 'G1',
    title: 'Discovery result',
    fail: ['lint-description-unsafe'],
    warn: ['lint-no-instructions'],
    pass: (m) =>
      `server/discover returns ${m.protocol.versions.join(', ')}, capabilities for ` +
      `${capabilityList(m)}, instructions and cache fields (see Discovery contract)`,
  },
  {
    id: 'G2',
    title: 'Per-request metadata policy',
    fail: [],
    warn: [],
    pass: () =>
      'every request is checked for _meta protocolVersion (string) and clientCapabilities ' +
      '(object) before dispatch: -32602, or -32022 for an unsupported version',
  },
  {
    id: 'G3',
    title: 'Deterministic, cache-aware lists',
    fail: ['lint-cache-disabled'],
    warn: [],
    pass: (m) => `every list is sorted by name in byte order; ttlMs ${m.cache.ttlMs}, cacheScope ${m.cache.scope}`,
  },
  {
    id: 'G4',
    title: 'Explicit state handles',
    fail: ['handle-never-issued', 'handle-never-consumed'],
    warn: [],
    pass: (m) =>
      m.handles.length === 0
        ? 'no multi-call workflow: no state to carry'
        : `${m.handles.map((h) => h.name).join(', ')}: minted by a tool, passed back ` +
          'as an ordinary argument, signed and bound to the principal; no session',
  },
  {
    id: 'G5',
    title: 'Transport headers',
    fail: [],
    warn: [],
    pass: (m) =>
      m.transports.http === null
        ? 'stdio only: no HTTP headers'
        : 'MCP-Protocol-Version, Mcp-Method and Mcp-Name are checked against the body (-32020 on mismatch)',
  },
  {
    id: 'G6',
    title: 'Authorization rules',
    fail: ['lint-mutating-without-scopes', 'http-public-without-auth'],
    warn: [],
    pass: authorizationReason,
  },
  {
    id: 'G7',
    title: 'Approval rules',
    fail: ['approval-none-destructive', 'lint-mutating-verb'],
    warn: [],
    pass: (m) => approvalReason(m),
  },
  {
    id: 'R1',
    title: 'No handshake-era mechanisms on the modern path',
    fail: [],
    warn: [],
    pass: (m) =>
      'the modern path never uses initialize, notifications/initialized, Mcp-Session-Id, GET streams, ' +
      'DELETE or Last-Event-ID (GET/DELETE answer 405' +
      (m.protocol.legacy === 'serve' ? ' unless they name a session of the legacy adapter' : '') +
      ')',
  },
  { id: 'R2', title: 'Legacy support only in an isolated adapter', fail: [], warn: [], pass: legacyReason },
  {
    id: 'R3',
    title: 'No Roots, Sampling or Logging',
    fail: [],
    warn: [],
    pass: (m) =>
      m.protocol.legacy === 'serve'
        ? 'on the modern path user input travels through multi round-trip results only; only the ' +
          'labeled legacy adapter turns them into elicitation/create, sampling/createMessage or ' +
          'roots/list requests and answers logging/setLevel, for 2025-11-25 clients'
        : 'the generated server sends no server-to-client requests; ' +
          'user input travels through multi round-trip results only',
  },
  {
    id: 'R4',
    title: 'No write or external call without authorization, validation and approval',
    fail: ['lint-external-write-without-approval', 'lint-mutating-without-scopes'],
    warn: ['lint-open-schema'],
    pass: () =>
      'every tool that changes data validates closed input before its handler, is ' +
      'scoped when auth is on, and asks for approval when destructive or open-world',
  },
  {
    id: 'R5',
    title: 'Tool count and context cost',
    fail: ['lint-list-too-large', 'lint-host-limit'],
    warn: ['lint-too-many-tools', 'lint-search-small', 'lint-tool-too-large'],
    pass: (m, tokens) =>
      m.discovery === 'search'
        ? `${m.tools.length} tool(s), ${defaultTools(m).length} searchable by default, found with search_tools and ` +
          `called with call_tool; tools/list lists those two for about ${tokens} tokens, within ` +
          `review.maxListTokens (${m.review.maxListTokens})`
        : `${m.tools.length} tool(s)` +
          (m.toolsets.length === 0
            ? ''
            : ` in ${m.toolsets.length} toolset(s), ${defaultTools(m).length} listed by default`) +
          ', within ' +
          `lint.maxTools (${m.lint.maxTools}); the default tools/list costs about ` +
          `${tokens} tokens, within review.maxListTokens (${m.review.maxListTokens})` +
          (m.review.hosts.length === 0 ? '' : `, and fits ${m.review.hosts.join(', ')}`),
  },
];

function legacyReason(model: ServerModel): string {
  if (model.protocol.legacy === 'reject') return '2025-11-25 clients are refused with -32022 (protocol.legacy: reject)';
  const http =
    model.transports.http === null
      ? ''
      : '; over HTTP in runtime/legacy-http.gen.ts, with sessions capped ' +
        'and closed when idle (sticky routing needed behind a load balancer)';
  return (
    'labeled legacy adapter for clients up to 2025-11-25 (protocol.legacy: serve): ' +
    `initialize, sessions and server-to-client requests exist only there${http}`
  );
}

function capabilityList(model: ServerModel): string {
  const kinds = [
    model.tools.length > 0 ? 'tools' : '',
    model.resources.length > 0 ? 'resources' : '',
    model.prompts.length > 0 ? 'prompts' : '',
  ].filter((k) => k !== '');
  return kinds.length === 0 ? 'nothing' : kinds.join(', ');
}

function authorizationReason(model: ServerModel): string {
  if (model.transports.http === null) return 'stdio only: the process that starts the server is the only client';
  if (model.auth.type === 'none') {
    const host = model.transports.http.host;
    return `HTTP on loopback (${host}) without auth; Origin and Host are checked on every request`;
  }
  return (
    `${model.auth.type} auth on every HTTP request (401 with resource ` +
    'metadata, 403 insufficient_scope); Origin and Host checked'
  );
}

function approvalReason(model: ServerModel): string {
  const confirm = model.tools.filter((t) => t.approval === 'confirm').map((t) => t.name);
  return confirm.length === 0
    ? 'no destructive tool'
    : `${confirm.join(', ')} ${confirm.length === 1 ? 'asks' : 'ask'} the user to confirm before the handler runs`;
}

/** Evaluates the gate. A WARN finding only downgrades a PASS; a FAIL finding always wins. */
export function evaluateGate(model: ServerModel, findings: readonly Finding[], tokens: number): GateItem[] {
  return rules.map((rule) => {
    const failing = findings.find((f) => rule.fail.includes(f.code));
    if (failing !== undefined)
      return { id: rule.id, title: rule.title, status: 'FAIL', reason: failing.message, cause: failing };
    const warning = findings.find((f) => rule.warn.includes(f.code));
    if (warning !== undefined)
      return { id: rule.id, title: rule.title, status: 'WARN', reason: warning.message, cause: warning };
    return { id: rule.id, title: rule.title, status: 'PASS', reason: rule.pass(model, tokens), cause: null };
  });
}
