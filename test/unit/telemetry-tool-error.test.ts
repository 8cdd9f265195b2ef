import { SpanStatusCode, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { openTelemetry } from '../../templates/runtime/telemetry.gen.js';

// call_tool (search.gen.ts) runs the named tool inside a span `tools/call <name>` with gen_ai.operation.name
// execute_tool. A direct call's span records a tool that answered isError (error.type tool_error, status ERROR); the
// span with the real tool's name under call_tool recorded it as a success.

interface Recorded {
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  status?: { code: number };
}
const ended: Recorded[] = [];
const tracer = {
  startActiveSpan: (
    name: string,
    options: { attributes?: Record<string, unknown> },
    fn: (span: unknown) => unknown,
  ) => {
    const recorded: Recorded = { name, attributes: { ...options.attributes } };
    const span = {
      setAttribute: (key: string, value: unknown) => {
        recorded.attributes[key] = value;
        return span;
      },
      setStatus: (status: { code: number }) => {
        recorded.status = status;
        return span;
      },
      end: () => ended.push(recorded),
    };
    return fn(span);
  },
} as unknown as Tracer;
trace.setGlobalTracerProvider({ getTracer: () => tracer } as TracerProvider);

describe('a tool span around a tool that answered isError', () => {
  it('records tool_error and ERROR on an execute_tool span only', async () => {
    const telemetry = openTelemetry('pipe');
    const failed = { content: [{ type: 'text', text: 'it failed' }], isError: true };
    const tool = { 'gen_ai.tool.name': 'fail', 'gen_ai.operation.name': 'execute_tool' };
    expect(await telemetry.withSpan('tools/call fail', tool, async () => failed)).toBe(failed);
    await telemetry.withSpan('tools/call add', { ...tool, 'gen_ai.tool.name': 'add' }, async () => ({ content: [] }));
    // A handler's own span returns its output, which may be any object of the tool's output schema.
    await telemetry.withSpan('handler odd', { 'gen_ai.tool.name': 'odd' }, async () => ({ isError: true }));
    expect(ended).toEqual([
      {
        name: 'tools/call fail',
        attributes: { ...tool, 'error.type': 'tool_error' },
        status: { code: SpanStatusCode.ERROR },
      },
      { name: 'tools/call add', attributes: { ...tool, 'gen_ai.tool.name': 'add' } },
      { name: 'handler odd', attributes: { 'gen_ai.tool.name': 'odd' } },
    ]);
  });
});
