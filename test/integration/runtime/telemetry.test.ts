import { rmSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import { envelope, limits, rpc, startHttpServer, type RunningServer } from './harness.js';
import {
  buildBundle,
  bundle,
  client,
  durationMetric,
  envFor,
  error,
  records,
  root,
  server,
  spansIn,
  startItemsApi,
  traceContext,
  waitFor,
  type ExportedSpan,
} from './telemetry-support.js';

// OpenTelemetry by the MCP semantic conventions, on the BUNDLED server (dist/server.mjs, which keeps
// @opentelemetry/api an import from node_modules) with a host SDK registered by a preload
// (test/support/otel-preload.mjs: sdk-trace-base and sdk-metrics writing what they export as JSON lines).
// Over HTTP (the fast path for plain calls, the SDK's per-request path for the approval tool and tools/list)
// and over stdio, a call carrying `traceparent` in params._meta yields one SERVER span in the sent trace, under
// the sent parent; a failing tool and a refused approval carry error.type and an ERROR status; the duration
// histogram is exported; ctx.log lines carry the trace and span ids.

let upstreamUrl = '';
let upstream: HttpServer;
beforeAll(async () => {
  ({ url: upstreamUrl, server: upstream } = await startItemsApi());
});
afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
});

beforeAll(buildBundle, 240_000);

describe('OpenTelemetry over HTTP, bundled server', () => {
  const out = path.join(root, 'http-telemetry.jsonl');
  let running: RunningServer;

  beforeAll(async () => {
    rmSync(out, { force: true });
    running = await startHttpServer(bundle, envFor(out, upstreamUrl));
  }, limits.startMs);
  afterAll(async () => {
    await running?.stop();
  });

  it('a tools/call add with traceparent in _meta is one SERVER span in that trace, under that parent', async () => {
    const sent = traceContext();
    const answer = await rpc(running.url, 'tools/call', {
      name: 'add',
      arguments: { a: 2, b: 3 },
      _meta: { ...envelope(), traceparent: sent.traceparent },
    });
    expect(answer.body.result.content).toEqual([{ type: 'text', text: '5' }]);
    const spans = await spansIn(out, sent.traceId);
    const servers = spans.filter((span) => span.spanKind === server);
    expect(servers).toHaveLength(1);
    const [span] = servers;
    expect(span?.name).toBe('tools/call add');
    expect(span?.parentSpanId).toBe(sent.parentId);
    expect(span?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': '1',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(span?.status.code).toBe(0);
    // The handler's work is the server span's one child, and ctx.log on stderr names the span it ran in.
    const children = spans.filter((s) => s.parentSpanId === span?.spanId);
    expect(children.map((s) => [s.name, s.spanKind, s.attributes])).toEqual([
      ['handler add', 0, { 'gen_ai.tool.name': 'add' }],
    ]);
    expect(running.stderr()).toContain(`adding trace_id=${sent.traceId} span_id=${children[0]?.spanId}`);
  });

  it('a bound tool: its upstream request is a CLIENT span "upstream GET /items/{id}" under its handler', async () => {
    const sent = traceContext();
    const answer = await rpc(running.url, 'tools/call', {
      name: 'get_item',
      arguments: { id: 'i7' },
      _meta: { ...envelope(), traceparent: sent.traceparent },
    });
    expect(answer.body.result.structuredContent).toEqual({ id: 'i7' });
    const spans = await waitFor(out, (all) => {
      const found = all.filter((r) => r.kind === 'span' && r.traceId === sent.traceId) as unknown as ExportedSpan[];
      return found.length >= 3 ? found : undefined;
    });
    const [call] = spans.filter((span) => span.spanKind === server);
    const handler = spans.find((s) => s.parentSpanId === call?.spanId);
    expect(handler?.name).toBe('handler get_item');
    expect(
      spans.filter((s) => s.parentSpanId === handler?.spanId).map((s) => [s.name, s.spanKind, s.attributes]),
    ).toEqual([['upstream GET /items/{id}', client, { 'http.request.method': 'GET', 'url.template': '/items/{id}' }]]);
  });

  it('a failing tool is error.type tool_error with an ERROR status', async () => {
    const sent = traceContext();
    const answer = await rpc(running.url, 'tools/call', {
      name: 'fail',
      arguments: {},
      _meta: { ...envelope(), traceparent: sent.traceparent },
    });
    expect(answer.body.result.isError).toBe(true);
    const [span] = (await spansIn(out, sent.traceId)).filter((s) => s.spanKind === server);
    expect(span?.name).toBe('tools/call fail');
    expect(span?.attributes['error.type']).toBe('tool_error');
    expect(span?.attributes['rpc.response.status_code']).toBeUndefined();
    expect(span?.status.code).toBe(error);
  });

  it('an approval asked, then refused: events with the decision, and the refusal is a tool_error', async () => {
    const first = traceContext();
    const asked = await rpc(running.url, 'tools/call', {
      name: 'remove',
      arguments: { id: 'r1' },
      _meta: { ...envelope(), traceparent: first.traceparent },
    });
    expect(asked.body.result.resultType).toBe('input_required');
    const [askedSpan] = (await spansIn(out, first.traceId)).filter((s) => s.spanKind === server);
    expect(askedSpan?.name).toBe('tools/call remove');
    expect(askedSpan?.events).toEqual([
      { name: 'mcp_gen.approval', attributes: { 'mcp_gen.approval.decision': 'asked' } },
    ]);
    expect(askedSpan?.attributes['error.type']).toBeUndefined();

    const second = traceContext();
    const refused = await rpc(
      running.url,
      'tools/call',
      {
        name: 'remove',
        arguments: { id: 'r1' },
        _meta: { ...envelope(), traceparent: second.traceparent },
        inputResponses: { confirm: { action: 'decline' } },
        requestState: asked.body.result.requestState,
      },
      undefined,
      2,
    );
    expect(refused.body.result.isError).toBe(true);
    const spans = await spansIn(out, second.traceId);
    const [span] = spans.filter((s) => s.spanKind === server);
    expect(span?.parentSpanId).toBe(second.parentId);
    expect(span?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'remove',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '2',
      'error.type': 'tool_error',
    });
    expect(span?.status.code).toBe(error);
    expect(span?.events).toEqual([
      { name: 'mcp_gen.approval', attributes: { 'mcp_gen.approval.decision': 'refused' } },
    ]);

    // Accepted on a fresh approval: the nonce is claimed in the store (a child span), then the handler runs.
    const third = traceContext();
    const again = await rpc(running.url, 'tools/call', {
      name: 'remove',
      arguments: { id: 'r2' },
      _meta: envelope(),
    });
    const accepted = await rpc(
      running.url,
      'tools/call',
      {
        name: 'remove',
        arguments: { id: 'r2' },
        _meta: { ...envelope(), traceparent: third.traceparent },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: again.body.result.requestState,
      },
      undefined,
      3,
    );
    expect(accepted.body.result.content).toEqual([{ type: 'text', text: 'removed r2' }]);
    const tree = await spansIn(out, third.traceId);
    const [root] = tree.filter((s) => s.spanKind === server);
    expect(root?.events).toEqual([
      { name: 'mcp_gen.approval', attributes: { 'mcp_gen.approval.decision': 'approved' } },
    ]);
    expect(root?.attributes['error.type']).toBeUndefined();
    const below = tree.filter((s) => s.parentSpanId === root?.spanId).map((s) => [s.name, s.attributes]);
    expect(below).toEqual([
      ['store claim', { 'db.system.name': 'memory', 'db.operation.name': 'claim' }],
      ['handler remove', { 'gen_ai.tool.name': 'remove' }],
    ]);
  });

  it('without _meta trace context, the parent comes from the traceparent header', async () => {
    const sent = traceContext();
    const response = await fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
        traceparent: sent.traceparent,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope() } }),
      signal: AbortSignal.timeout(limits.requestMs),
    });
    expect(response.status).toBe(200);
    const [span] = (await spansIn(out, sent.traceId)).filter((s) => s.spanKind === server);
    expect(span?.name).toBe('tools/list');
    expect(span?.parentSpanId).toBe(sent.parentId);
    expect(span?.attributes['jsonrpc.request.id']).toBe('7');
  });

  it('records mcp.server.operation.duration in seconds with the convention buckets', async () => {
    const metric = await durationMetric(out, 5);
    expect(metric.unit).toBe('s');
    const add = metric.points.find((p) => p.attributes['gen_ai.tool.name'] === 'add');
    expect(add?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'add',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
    });
    expect(add?.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    const failed = metric.points.find((p) => p.attributes['gen_ai.tool.name'] === 'fail');
    expect(failed?.attributes['error.type']).toBe('tool_error');
    // The fast path primes its pinned server with a server/discover of its own: no client's request, no span.
    expect(records(out).filter((r) => r.kind === 'span' && r.name === 'server/discover')).toEqual([]);
  });
});

describe('OpenTelemetry over stdio, bundled server', () => {
  const out = path.join(root, 'stdio-telemetry.jsonl');
  let stdio: RawStdio;

  beforeAll(() => {
    rmSync(out, { force: true });
    stdio = startRawStdio(bundle, envFor(out, upstreamUrl));
  });
  afterAll(async () => {
    await stdio?.close();
  });

  it('a tools/call add with _meta traceparent is one SERVER span over pipe; a failure is tool_error', async () => {
    const sent = traceContext();
    const answer = await stdio.request({
      jsonrpc: '2.0',
      id: 'a-1',
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 1 }, _meta: { ...envelope(), traceparent: sent.traceparent } },
    });
    expect(answer.result).toMatchObject({ content: [{ type: 'text', text: '2' }] });
    const servers = (await spansIn(out, sent.traceId)).filter((s) => s.spanKind === server);
    expect(servers).toHaveLength(1);
    expect(servers[0]?.name).toBe('tools/call add');
    expect(servers[0]?.parentSpanId).toBe(sent.parentId);
    expect(servers[0]?.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': 'a-1',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'pipe',
      'gen_ai.tool.name': 'add',
      'gen_ai.operation.name': 'execute_tool',
    });
    const handler = (await spansIn(out, sent.traceId)).find((s) => s.parentSpanId === servers[0]?.spanId);
    expect(handler?.name).toBe('handler add');
    expect(stdio.stderr()).toContain(`adding trace_id=${sent.traceId} span_id=${handler?.spanId}`);

    const failing = traceContext();
    await stdio.request({
      jsonrpc: '2.0',
      id: 'f-1',
      method: 'tools/call',
      params: { name: 'fail', arguments: {}, _meta: { ...envelope(), traceparent: failing.traceparent } },
    });
    const [failed] = (await spansIn(out, failing.traceId)).filter((s) => s.spanKind === server);
    expect(failed?.attributes['error.type']).toBe('tool_error');
    expect(failed?.status.code).toBe(error);

    const metric = await durationMetric(out, 2);
    expect(metric.points.map((p) => p.attributes['network.transport'])).toEqual(['pipe', 'pipe']);
  });

  it('a JSON-RPC error is error.type and rpc.response.status_code of its code', async () => {
    const sent = traceContext();
    const answer = await stdio.request({
      jsonrpc: '2.0',
      id: 'n-1',
      method: 'prompts/get',
      params: { name: 'none', _meta: { ...envelope(), traceparent: sent.traceparent } },
    });
    const code = (answer.error as { code: number }).code;
    const [span] = (await spansIn(out, sent.traceId)).filter((s) => s.spanKind === server);
    expect(span?.name).toBe('prompts/get none');
    expect(span?.attributes).toMatchObject({
      'gen_ai.prompt.name': 'none',
      'error.type': String(code),
      'rpc.response.status_code': String(code),
    });
    expect(span?.status).toEqual({ code: error, message: (answer.error as { message: string }).message });
  });
});
