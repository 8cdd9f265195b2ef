/**
 * OpenTelemetry traces and metrics by the MCP semantic conventions, with `telemetry: { type: opentelemetry }`. It uses
 * `@opentelemetry/api` only: until the host process registers an SDK (`node --import`, or src/setup.ts), every call
 * here is the API's no-op. One SERVER span per request, named `{mcp.method.name} {target}`, from the moment the
 * transport hands the request to the SDK until its answer is sent, so the SDK's own errors (-32602 for bad arguments)
 * are recorded as well as the handler's; its parent is the trace context of `params._meta`, else of the HTTP headers
 * (then also linked). The instrumentation sits on the transport each server connects to, so stdio, the SDK's
 * per-request HTTP path, the HTTP fast path and legacy sessions share it.
 */
import {
  context,
  metrics,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Link,
  type Span,
  type TextMapGetter,
} from '@opentelemetry/api';
import {
  BAGGAGE_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
  type JSONRPCMessage,
  type McpServer,
  type MessageExtraInfo,
  type Transport,
} from '@modelcontextprotocol/server';
import type { Telemetry, TelemetryAttributes } from './startup.gen.js';

const tracer = trace.getTracer('mcp-gen');

/** The convention's bucket boundaries for `mcp.server.operation.duration`, in seconds. */
export const durationBuckets = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The trace keys of `_meta` (unprefixed W3C names, SEP-414). */
const traceKeys = [TRACEPARENT_META_KEY, TRACESTATE_META_KEY, BAGGAGE_META_KEY];

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** One request whose answer is not sent yet. */
interface Pending {
  readonly span: Span;
  readonly started: number;
  readonly attributes: Attributes;
}

/**
 * A transport that can name a request's id as its client sent it (http-fast.gen.ts gives each call an internal id).
 */
interface ClientIds {
  clientIdOf?(id: string | number): string | number | undefined;
}

/** The span's name and attributes of one request, by the conventions. */
function describeRequest(
  message: { readonly method: string; readonly id: string | number; readonly params?: Record<string, unknown> },
  clientId: string | number,
  network: 'pipe' | 'tcp',
  headers: Headers | undefined,
): { readonly name: string; readonly attributes: Attributes } {
  const { method, params } = message;
  const attributes: Attributes = { 'mcp.method.name': method, 'jsonrpc.request.id': String(clientId) };
  const version = (params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
  const negotiated = typeof version === 'string' ? version : headers?.get('mcp-protocol-version');
  if (typeof negotiated === 'string') attributes['mcp.protocol.version'] = negotiated;
  attributes['network.transport'] = network;
  if (network === 'tcp') attributes['network.protocol.name'] = 'http';
  const target = typeof params?.name === 'string' ? params.name : undefined;
  if (method === 'tools/call' && target !== undefined) {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get' && target !== undefined) attributes['gen_ai.prompt.name'] = target;
  // A resource URI is high-cardinality: an attribute, never part of the name.
  else if (method === 'resources/read' && typeof params?.uri === 'string') attributes['mcp.resource.uri'] = params.uri;
  const named = method === 'tools/call' || method === 'prompts/get' ? target : undefined;
  return { name: named === undefined ? method : `${method} ${named}`, attributes };
}

/**
 * The parent context of a request: `params._meta`'s trace context, else the HTTP headers'; a header context that is
 * not the parent becomes a link (one HTTP request is not one MCP request).
 */
function parentOf(meta: Record<string, unknown> | undefined, headers: Headers | undefined): [Context, Link[]] {
  const active = context.active();
  const carried: Record<string, string> = {};
  for (const key of traceKeys) if (typeof meta?.[key] === 'string') carried[key] = meta[key] as string;
  const fromHeaders =
    headers?.has('traceparent') === true ? propagation.extract(active, headers, headerGetter) : undefined;
  if (carried[TRACEPARENT_META_KEY] === undefined) return [fromHeaders ?? active, []];
  const parent = propagation.extract(active, carried);
  const linked = fromHeaders === undefined ? undefined : trace.getSpanContext(fromHeaders);
  return [parent, linked === undefined ? [] : [{ context: linked }]];
}

/** What the answer says, as the conventions record it: the JSON-RPC error code, or `tool_error` for `isError`. */
function outcomeOf(message: JSONRPCMessage): { readonly type: string; readonly description?: string } | null {
  if ('error' in message) return { type: String(message.error.code), description: message.error.message };
  const result = 'result' in message ? (message.result as { isError?: unknown }) : undefined;
  return result?.isError === true ? { type: 'tool_error' } : null;
}

/** The telemetry of this server; `network` is how clients reach it (`pipe`: stdio, `tcp`: HTTP). */
export function openTelemetry(network: 'pipe' | 'tcp'): Telemetry {
  // Looked up on the first request, after src/setup.ts had its chance to register an SDK: a meter taken earlier
  // would stay the no-op one (the metrics API has no proxy).
  let histogram: Histogram | undefined;
  const record = (pending: Pending, error: string | undefined): void => {
    histogram ??= metrics.getMeter('mcp-gen').createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'Duration of an MCP request, from receiving it until its answer is sent',
      advice: { explicitBucketBoundaries: durationBuckets },
    });
    const { attributes } = pending;
    const recorded: Attributes = {};
    for (const key of ['mcp.method.name', 'gen_ai.tool.name', 'gen_ai.prompt.name', 'mcp.protocol.version'])
      if (attributes[key] !== undefined) recorded[key] = attributes[key];
    recorded['network.transport'] = network;
    if (error !== undefined) recorded['error.type'] = error;
    histogram.record((performance.now() - pending.started) / 1000, recorded);
  };

  /** Traces every request `transport` carries: called once the SDK has connected to it and set its `onmessage`. */
  const observe = (transport: Transport & ClientIds): void => {
    const receive = transport.onmessage;
    const send = transport.send;
    const pending = new Map<string | number, Pending>();
    const finish = (id: string | number, outcome: { readonly type: string; readonly description?: string } | null) => {
      const call = pending.get(id);
      if (call === undefined) return;
      pending.delete(id);
      if (outcome !== null) {
        call.span.setAttribute('error.type', outcome.type);
        if (outcome.type !== 'tool_error' && outcome.type !== 'cancelled')
          call.span.setAttribute('rpc.response.status_code', outcome.type);
        call.span.setStatus({
          code: SpanStatusCode.ERROR,
          ...(outcome.description ? { message: outcome.description } : {}),
        });
      }
      record(call, outcome?.type);
      call.span.end();
    };
    transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (receive === undefined) return;
      if ('method' in message && !('id' in message)) {
        // A cancelled request is never answered: its span ends here.
        const cancelled = message.method === 'notifications/cancelled' ? message.params?.requestId : undefined;
        if (typeof cancelled === 'string' || typeof cancelled === 'number')
          finish(cancelled, { type: 'cancelled', description: 'The request was cancelled' });
        return receive.call(transport, message, extra);
      }
      if (!('method' in message)) return receive.call(transport, message, extra);
      const headers = extra?.request?.headers;
      const params = message.params as Record<string, unknown> | undefined;
      const request = { method: message.method, id: message.id, ...(params === undefined ? {} : { params }) };
      const { name, attributes } = describeRequest(
        request,
        transport.clientIdOf?.(message.id) ?? message.id,
        network,
        headers,
      );
      const [parent, links] = parentOf(params?._meta as Record<string, unknown> | undefined, headers);
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent);
      pending.set(message.id, { span, started: performance.now(), attributes });
      // The SDK starts the handler's promise chain inside this call, so the handler runs in the span's context.
      context.with(trace.setSpan(parent, span), () => receive.call(transport, message, extra));
    };
    transport.send = (message, options) => {
      const id = 'method' in message ? undefined : message.id;
      if (typeof id === 'string' || typeof id === 'number') finish(id, outcomeOf(message));
      return send.call(transport, message, options);
    };
    const close = transport.onclose;
    transport.onclose = () => {
      for (const id of [...pending.keys()]) finish(id, { type: 'cancelled', description: 'The connection closed' });
      close?.call(transport);
    };
  };

  return {
    instrument(server: McpServer): McpServer {
      const connect = server.connect.bind(server);
      server.connect = async (transport: Transport) => {
        await connect(transport);
        observe(transport);
      };
      return server;
    },
    withSpan: (name, attributes, fn, kind = 'internal') =>
      tracer.startActiveSpan(
        name,
        { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes },
        async (span) => {
          try {
            const result = await fn();
            // A tool that answered isError failed, as the request's own span records it (call_tool's inner span).
            if (
              attributes['gen_ai.operation.name'] === 'execute_tool' &&
              (result as { isError?: unknown } | null)?.isError === true
            ) {
              span.setAttribute('error.type', 'tool_error');
              span.setStatus({ code: SpanStatusCode.ERROR });
            }
            return result;
          } catch (error) {
            span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
            span.setStatus({
              code: SpanStatusCode.ERROR,
              ...(error instanceof Error ? { message: error.message } : {}),
            });
            throw error;
          } finally {
            span.end();
          }
        },
      ),
    event: (name: string, attributes: TelemetryAttributes) => trace.getActiveSpan()?.addEvent(name, attributes),
    logIds: () => {
      const span = trace.getActiveSpan()?.spanContext();
      return span === undefined || !trace.isSpanContextValid(span)
        ? ''
        : ` trace_id=${span.traceId} span_id=${span.spanId}`;
    },
  };
}
