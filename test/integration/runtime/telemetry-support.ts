import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import { generateAndCompile, repoRoot } from './harness.js';

// The traced fixture of the OpenTelemetry tests: its manifest and handlers, the bundled server built from them,
// the items API its bound tool calls, and reading what the preload's exporter writes.

export const manifest = `mcpGen: 1
server: { name: traced, version: 1.0.0 }
transports:
  stdio: {}
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
telemetry: { type: opentelemetry }
config:
  TRACED_API_URL: { description: The items API., type: url, required: false }
upstream: { baseUrl: TRACED_API_URL }
tools:
  get_item:
    description: Reads one item from the items API.
    annotations: { readOnlyHint: true, openWorldHint: true }
    input:
      type: object
      properties: { id: { type: string, maxLength: 20 } }
      required: [id]
      additionalProperties: false
    output: { type: object, properties: { id: { type: string } } }
    http: { method: GET, path: "/items/{id}", args: { id: path } }
  add:
    description: Adds two numbers.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input:
      type: object
      properties: { a: { type: number }, b: { type: number } }
      required: [a, b]
      additionalProperties: false
  fail:
    description: Always fails.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, properties: {}, additionalProperties: false }
  remove:
    description: Removes an item once the user confirms.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
    approval: confirm
    input:
      type: object
      properties: { id: { type: string, maxLength: 20 } }
      required: [id]
      additionalProperties: false
`;

export const handlers = {
  'src/handlers/tools/add.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const addHandler: ToolHandler<'add'> = async (input, ctx) => {
  ctx.log('adding');
  return String(input.a + input.b);
};
`,
  'src/handlers/tools/fail.ts': `import { ToolError, type ToolHandler } from '../../generated/index.gen.js';

export const failHandler: ToolHandler<'fail'> = async () => {
  throw new ToolError('it failed');
};
`,
  'src/handlers/tools/remove.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const removeHandler: ToolHandler<'remove'> = async (input) => \`removed \${input.id}\`;
`,
};

export const root = path.join(repoRoot, '.test-out', 'runtime-telemetry');
const dir = path.join(root, 'project');
const preload = path.join(repoRoot, 'test', 'support', 'otel-preload.mjs');
export const bundle = path.join(dir, 'dist', 'server.mjs');

export interface ExportedSpan {
  readonly name: string;
  readonly spanKind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly attributes: Record<string, unknown>;
  readonly status: { readonly code: number; readonly message?: string };
  readonly events: readonly { readonly name: string; readonly attributes: Record<string, unknown> }[];
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
}
export interface ExportedMetric {
  readonly name: string;
  readonly unit: string;
  readonly points: readonly { attributes: Record<string, unknown>; count: number; boundaries: number[] | null }[];
}

/** SpanKind.SERVER, SpanKind.CLIENT and SpanStatusCode.ERROR in @opentelemetry/api. */
export const server = 1;
export const client = 2;
export const error = 2;

export const records = (file: string): { kind: string; [key: string]: unknown }[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line))
    : [];

/** Polls the exporter's file (bounded) until `find` returns something. */
export async function waitFor<T>(file: string, find: (all: ReturnType<typeof records>) => T | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = find(records(file));
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not exported within 30 s; the file holds: ${existsSync(file) ? readFileSync(file, 'utf8') : ''}`);
}

export const spansIn = (file: string, traceId: string): Promise<ExportedSpan[]> =>
  waitFor(file, (all) => {
    const spans = all.filter((r) => r.kind === 'span' && r.traceId === traceId) as unknown as ExportedSpan[];
    return spans.some((span) => span.spanKind === server) ? spans : undefined;
  });

/** The latest export of the duration histogram, once it counts at least `count` requests. */
export const durationMetric = (file: string, count: number): Promise<ExportedMetric> =>
  waitFor(file, (all) => {
    const exports = all.filter((r) => r.kind === 'metrics').map((r) => r.metrics as ExportedMetric[]);
    const latest = exports.at(-1)?.find((m) => m.name === 'mcp.server.operation.duration');
    return latest !== undefined && latest.points.reduce((sum, p) => sum + p.count, 0) >= count ? latest : undefined;
  });

let sequence = 0;
/** A fresh W3C trace context: its trace id, parent span id and traceparent. */
export function traceContext(): { traceId: string; parentId: string; traceparent: string } {
  sequence += 1;
  const traceId = `4bf92f3577b34da6a3ce929d0e0e${String(sequence).padStart(4, '0')}`;
  const parentId = `00f067aa0ba9${String(sequence).padStart(4, '0')}`;
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
}

const stateKey = 'traced-state-key-0123456789abcdef-0123456';

/** The environment of a traced server exporting to `out`, its get_item calling the items API at `upstreamUrl`. */
export const envFor = (out: string, upstreamUrl: string): Record<string, string> => ({
  NODE_OPTIONS: `--import ${preload}`,
  OTEL_TEST_OUT: out,
  TRACED_STATE_KEY: stateKey,
  TRACED_API_URL: upstreamUrl,
});

/** The items API the bound tool get_item calls: answers every request with the id in its path. */
export async function startItemsApi(): Promise<{ readonly url: string; readonly server: HttpServer }> {
  const server = createServer((request, response) =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ id: (request.url ?? '').split('/').pop() })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Generates and compiles the fixture, then bundles it into `bundle`. */
export function buildBundle(): void {
  mkdirSync(root, { recursive: true });
  const source = path.join(root, 'mcp.yaml');
  writeFileSync(source, manifest);
  generateAndCompile(source, 'runtime-telemetry/project', handlers);
  const bundled = spawnSync(process.execPath, ['src/generated/bundle.gen.mjs'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (bundled.status !== 0) throw new Error(`bundle failed:\n${bundled.stdout}${bundled.stderr}`);
  // The bundle must leave the API to node_modules: a copy inside it would not see the host's SDK.
  expect(readFileSync(bundle, 'utf8')).toMatch(/from ["']@opentelemetry\/api["']/);
}
