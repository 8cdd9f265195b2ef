import type { Finding } from '../../diagnostics/index.js';
import { scaffoldPaths } from '../../model/layout.js';
import { announcesChanges } from '../../model/notifications.js';
import { needsStore } from '../../model/store.js';
import type { ServerModel } from '../../model/types.js';
import type { GateItem } from '../../review/index.js';
import { compareText } from '../../util/compare.js';
import { verificationPlan } from '../shared/verification.js';
import { block, cell, code, firstSentence, table } from '../shared/markdown.js';
import { promptHints, resourceHints, toolHints } from './view-hints.js';
import { type Memo, noMemo } from '../../util/memo.js';

/** Section 1: one row per primitive. */
export function primitiveMap(model: ServerModel, memo: Memo = noMemo): string {
  const rows = [
    ...model.tools.map((tool) =>
      memo.recall('report.primitive-row', tool, (t) => [
        'tool',
        code(t.name),
        cell(t.title),
        cell(firstSentence(t.description)),
        toolHints(t),
        cell(t.scopes.join(', ')),
      ]),
    ),
    ...model.resources.map((r) => [
      'resource',
      code(r.name),
      cell(r.title),
      cell(firstSentence(r.description) ?? r.uri ?? r.uriTemplate),
      resourceHints(r),
      '—',
    ]),
    ...model.prompts.map((p) => [
      'prompt',
      code(p.name),
      cell(p.title),
      cell(firstSentence(p.description)),
      promptHints(p),
      '—',
    ]),
  ];
  return table(['kind', 'name', 'title', 'what it does', 'hints', 'scopes'], rows);
}

function duration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
  ];
  const unit = units.find(([size]) => ms % size === 0 && ms >= size);
  return unit === undefined ? `${ms}ms` : `${ms / unit[0]}${unit[1]}`;
}

/** Section 6: every handle kind, and the flow from issuers to consumers as Mermaid. */
export function statePlan(model: ServerModel) {
  const rows = model.handles.map((h) => [
    code(h.name),
    cell(h.description),
    cell(h.issuedBy.join(', ')),
    cell(h.consumedBy.join(', ')),
    duration(h.ttlMs),
    'principal that was issued it',
  ]);
  const lines = ['flowchart LR'];
  for (const h of model.handles) lines.push(`  h_${h.name}(["${h.name}"])`);
  const tools = [...new Set(model.handles.flatMap((h) => [...h.issuedBy, ...h.consumedBy]))].sort(compareText);
  // A Mermaid node id is a word: `get-sum` or `v2.search` would be read as syntax. Names that differ only there
  // collide anyway.
  const node = (tool: string) => `t_${tool.replace(/[^A-Za-z0-9_]/g, '_')}`;
  for (const t of tools) lines.push(`  ${node(t)}["${t}"]`);
  for (const h of model.handles) {
    for (const t of h.issuedBy) lines.push(`  ${node(t)} -->|issues| h_${h.name}`);
    for (const t of h.consumedBy) lines.push(`  h_${h.name} -->|consumed by| ${node(t)}`);
  }
  return {
    hasHandles: rows.length > 0,
    table: table(['kind', 'what it stands for', 'issued by', 'consumed by', 'lifetime', 'bound to'], rows),
    mermaid: block('mermaid', lines.join('\n')),
  };
}

/** Section 7 (without the examples): transports, binding, origins, auth and scopes. */
export function transportPlan(model: ServerModel) {
  const http = model.transports.http;
  const rows = [
    [
      'stdio',
      model.transports.stdio ? 'yes: newline-delimited JSON-RPC, diagnostics on stderr, exits on stdin EOF' : 'no',
    ],
    [
      'Streamable HTTP',
      http === null
        ? 'no'
        : `single POST endpoint ${code(`http://${http.host}:${http.port}${http.path}`)}; ` +
          'GET/DELETE 405; notifications 202',
    ],
    ['bind address', http === null ? '—' : `${cell(http.host)}${http.loopback ? ' (loopback)' : ''}`],
    [
      'Origin allowlist',
      http === null ? '—' : ['loopback origins', ...http.allowedOrigins.map((o) => code(o))].join(', '),
    ],
    [
      'authorization',
      model.auth.type === 'none'
        ? 'none'
        : model.auth.type === 'bearer'
          ? `bearer tokens from ${code(model.auth.tokensEnv)}` +
            (model.auth.resource === null ? '' : ` (resource ${code(model.auth.resource)})`)
          : `OAuth access tokens from ${code(model.auth.issuer)} (audience ${code(model.auth.resource)})`,
    ],
  ];
  rows.push(['deadlines', deadlinePlan(model)]);
  const stdio = model.transports.stdio;
  const limits = [
    ...(http === null
      ? []
      : [
          `HTTP: at most ${http.maxConcurrentCalls} requests and ${bytes(http.maxBufferedBytes)} of bodies ` +
            `held at once (more: 503 with ${code('Retry-After')}), bodies of at most 4 MiB; ` +
            `${code('subscriptions/listen')} streams apart from them: at most ${http.maxListenStreams} ` +
            `(${http.maxListenStreamsPerPrincipal} per principal; more: -31429), a keep-alive every ` +
            `${duration(http.listenKeepAliveMs)}, ended after ${duration(http.listenIdleMs)} without a notification`,
        ]),
    ...(stdio === null
      ? []
      : [
          `stdio: at most ${stdio.maxConcurrentCalls} requests in flight (more: -32000 at once), ` +
            'lines of at most 4 MiB',
        ]),
  ];
  rows.push(['limits', limits.join('; ')]);
  const httpShutdown =
    http === null
      ? ''
      : `HTTP: on SIGTERM or SIGINT refuses new calls (503), lets calls finish for ` +
        `${duration(http.shutdownGraceMs)}, cancels the rest (503) and exits 0; `;
  rows.push(['shutdown', `${httpShutdown}stdio: exits within 1s of stdin EOF`]);
  if (http !== null) rows.push(['probes', probePlan(model, http.path)]);
  rows.push(['state store', storePlan(model)]);
  rows.push([
    'telemetry',
    model.telemetry.type === 'none'
      ? 'none'
      : `OpenTelemetry (${code('@opentelemetry/api')}, a no-op until the host registers an SDK): one server span ` +
        `per request by the MCP conventions, parent from ${code('params._meta')} ${code('traceparent')}, and ` +
        `the ${code('mcp.server.operation.duration')} histogram; arguments and results never recorded`,
  ]);
  const tasks = taskPlan(model);
  if (tasks !== null) rows.push(['tasks', tasks]);
  rows.push(['change notifications', notificationsPlan(model)]);
  const scopes = model.tools.map((t) => [code(t.name), cell(t.scopes.join(', '))]);
  const retries = model.tools.map((t) => [code(t.name), t.retry, retryReasons[t.retry]]);
  return {
    table: table(['aspect', 'plan'], rows),
    hasScopes: model.auth.type !== 'none',
    scopes: table(['tool', 'scopes required'], scopes),
    retries: table(['tool', 'retry class', 'a client that timed out may'], retries),
  };
}

/** The HTTP probes (http.gen.ts): fixed paths, except one the MCP endpoint already has. */
function probePlan(model: ServerModel, mcpPath: string): string {
  const store = needsStore(model) ? ', the state store answers' : '';
  const setup = scaffoldPaths.setup;
  const probes = [
    ['/healthz', 'live (200 while serving)'],
    [
      '/readyz',
      `ready (200 once started${store}, the ${code('ready')} checks of ${setup} pass, not draining; else 503)`,
    ],
  ].filter(([path]) => path !== mcpPath);
  const off = code('MCP_GEN_HEALTH=off');
  const list = probes.map(([path, what]) => `${code(`GET ${path}`)} ${what}`).join(', ');
  return `${list}; no auth or Host check, nothing configured shown; ${off} removes them`;
}

const bytes = (n: number): string => (n % 1_048_576 === 0 ? `${n / 1_048_576} MiB` : `${n} bytes`);

/**
 * Each tool's timeout, grouped: `ctx.signal` aborts at it and the call answers a tool error; a client's cancel
 * aborts it too.
 */
function deadlinePlan(model: ServerModel): string {
  const byTimeout = new Map<number, string[]>();
  for (const tool of model.tools)
    byTimeout.set(tool.timeoutMs, [...(byTimeout.get(tool.timeoutMs) ?? []), code(tool.name)]);
  const groups = [...byTimeout]
    .sort(([a], [b]) => a - b)
    .map(([ms, names]) =>
      byTimeout.size === 1 ? `${duration(ms)} for every tool` : `${duration(ms)}: ${names.join(', ')}`,
    );
  const timeouts = groups.length === 0 ? 'no tools' : groups.join('; ');
  return (
    `${timeouts}; then ${code('ctx.signal')} aborts and the call answers a tool error; ` +
    "a client's cancel aborts it too"
  );
}

const retryReasons = {
  safe: 'retry: read-only or idempotent',
  conditional: `retry with the same ${code('idempotencyKey')} and arguments: it gets the stored result`,
  unsafe: 'not retry blindly: the call may run twice; check its effect first',
} as const;

/** Which tools run as durable tasks, for how long they are kept, and what a dead instance means for them. */
function taskPlan(model: ServerModel): string | null {
  const tools = model.tools.filter((t) => t.task !== 'none');
  if (tools.length === 0) return null;
  const list = tools.map((t) => `${code(t.name)} (${t.task}, kept ${duration(t.taskTtlMs)})`).join(', ');
  const where =
    model.store.type === 'redis'
      ? 'any instance answers tasks/get, tasks/update and tasks/cancel; a task whose instance died is failed ' +
        'after 3 s without its heartbeat; listen streams on every instance hear each change (notifications/tasks)'
      : 'tasks live in this process and are lost on restart; its listen streams hear each change (notifications/tasks)';
  return `${list}: written to the store before the task id is sent, for clients that declare the extension; ${where}`;
}

/** Where used approvals and idempotency keys live, and what that means for several instances. */
function storePlan(model: ServerModel): string {
  if (!needsStore(model)) return 'none: no tool needs approval or an idempotency key';
  const hours = `${Math.round((model.store.idempotencyTtlMs / 3_600_000) * 100) / 100} h`;
  if (model.store.type === 'memory')
    return (
      'memory: this process only; an approval is used once and an idempotency key ' +
      `answered (for ${hours}) within one process, not across instances or restarts`
    );
  return (
    `Redis at ${code(model.store.urlEnv)}, shared by every instance: an approval is used once across ` +
    `instances and restarts; idempotency keys answered for ${hours}; unreachable means fail closed`
  );
}

/** What `ctx.notify` announces, to whom, and how far it reaches. */
function notificationsPlan(model: ServerModel): string {
  const { listChanged, resourceUpdates } = model.notifications;
  if (!announcesChanges(model.notifications)) return 'none: no list or resource change is announced';
  const updated = code('ctx.notify.resourceUpdated(uri)');
  const kinds = [
    ...listChanged.map(
      (list) => `${code(`notifications/${list}/list_changed`)} (${code(`ctx.notify.listChanged('${list}')`)})`,
    ),
    ...(resourceUpdates ? [`${code('notifications/resources/updated')} to subscribers of the URI (${updated})`] : []),
  ];
  const reach =
    model.store.type === 'redis'
      ? `every instance, through Redis pub/sub at ${code(model.store.urlEnv)} (at most once)`
      : 'this process only (memory store)';
  return `${kinds.join('; ')}; on subscriptions/listen streams and legacy sessions of ${reach}`;
}

/** Section 9: destructive tools, their approval rule and what the user sees. */
export function destructiveList(model: ServerModel): { hasDestructive: boolean; table: string } {
  const rows = model.tools
    .filter((t) => t.destructive)
    .map((t) => [
      code(t.name),
      t.approval === 'confirm' ? 'confirm (asked before every call)' : '**none**',
      t.approval === 'confirm'
        ? `${cell(t.title ?? t.name)}, with the exact arguments, and a yes/no ${code('confirm')}`
        : 'nothing: runs without asking',
    ]);
  return { hasDestructive: rows.length > 0, table: table(['tool', 'approval', 'the confirmation shows'], rows) };
}

/** Section 10: checks and the generated tests that cover them, and which run only when a test run opts in. */
export function verificationTable(model: ServerModel): string {
  const optIn = `only with ${code('MCP_GEN_TEST_WRITES=1')}: runs a tool that changes data`;
  const rows = verificationPlan(model).map((v) => [cell(v.topic), code(v.test), v.writes ? optIn : 'always']);
  // The examples' tests are named as in contract.gen.test.ts: kind, name and the example's place in the list.
  const writing = model.examples.flatMap((e, i) => (e.writes ? [code(`${e.kind} ${e.name}: example ${i + 1}`)] : []));
  if (writing.length > 0) rows.push(['Examples of tools that are not read-only', writing.join(', '), optIn]);
  return table(['check', 'generated test (test/contract.gen.test.ts)', 'runs'], rows);
}

/** The gate table; `lineOf` gives the manifest line of a finding. */
export function gateTable(gate: readonly GateItem[], lineOf: (finding: Finding) => string): string {
  return table(
    ['item', 'check', 'status', 'reason', 'line'],
    gate.map((g) => [
      g.id,
      cell(g.title),
      `**${g.status}**`,
      cell(g.reason),
      g.cause === null ? '—' : cell(lineOf(g.cause)),
    ]),
  );
}
