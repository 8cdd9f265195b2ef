// A host's OpenTelemetry SDK, registered before the server starts (`node --import ./otel-preload.mjs
// dist/server.mjs`, here through NODE_OPTIONS): sdk-trace-base and sdk-metrics with exporters that append
// every finished span and every metrics collection as one JSON line to the file OTEL_TEST_OUT names, so a
// test reads what the server exported without a collector. It imports @opentelemetry/api from the same
// node_modules the server resolves, as a host's SDK does.
import { appendFileSync } from 'node:fs';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const out = process.env.OTEL_TEST_OUT;
if (out === undefined || out === '') throw new Error('otel-preload: OTEL_TEST_OUT is not set');
const write = (record) => appendFileSync(out, `${JSON.stringify(record)}\n`);
const success = { code: ExportResultCode.SUCCESS };

const spanExporter = {
  export(spans, done) {
    for (const span of spans)
      write({
        kind: 'span',
        name: span.name,
        spanKind: span.kind,
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId ?? null,
        attributes: span.attributes,
        status: span.status,
        events: span.events.map((event) => ({ name: event.name, attributes: event.attributes ?? {} })),
        links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
      });
    done(success);
  },
  shutdown: async () => {},
};

const metricExporter = {
  export(resourceMetrics, done) {
    const found = resourceMetrics.scopeMetrics.flatMap((scope) =>
      scope.metrics.map((metric) => ({
        name: metric.descriptor.name,
        unit: metric.descriptor.unit,
        points: metric.dataPoints.map((point) => ({
          attributes: point.attributes,
          count: point.value.count,
          boundaries: point.value.buckets?.boundaries ?? null,
        })),
      })),
    );
    if (found.length > 0) write({ kind: 'metrics', metrics: found });
    done(success);
  },
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
  forceFlush: async () => {},
  shutdown: async () => {},
};

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] }));
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 200 });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
