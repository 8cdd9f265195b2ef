import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, rpc } from '../integration/runtime/harness.js';
import { repoRoot } from '../support/golden.js';
import { buildWorker, generateWorker, installWorkersHarness, startWrangler, type Wrangler } from './workers-support.js';

// A generated Worker under wrangler dev (workerd, local, no account): the state store is the Worker's Durable
// Object, so an approval runs its tool once and an idempotency key its handler once however many requests race,
// a task started by one request is read and cancelled by others, and a restart of the Worker (a new isolate, its
// memory gone) still finds what the Durable Object stored. Handlers report each run to a recorder in this process.

const manifest = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'workers', 'edge.yaml'), 'utf8');
const accept = { confirm: { action: 'accept', content: { confirm: true } } };
const extension = 'io.modelcontextprotocol/tasks';
const withTasks = { elicitation: { form: {} }, extensions: { [extension]: {} } };

/** Reports one run to the recorder (EDGE_RECORDER, a config variable: a Worker var here). */
const report = `const report = (services: { config: { EDGE_RECORDER: string } }, what: string): Promise<unknown> =>
  fetch(\`\${services.config.EDGE_RECORDER}/\${encodeURIComponent(what)}\`, { method: 'POST' });`;

const handlers: Readonly<Record<string, string>> = {
  'src/handlers/tools/remove_record.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

${report}

export const removeRecordHandler: ToolHandler<'remove_record'> = async (input, ctx) => {
  await report(ctx.services, \`remove \${input.id}\`);
  return \`removed \${input.id}\`;
};
`,
  'src/handlers/tools/send_note.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

${report}

export const sendNoteHandler: ToolHandler<'send_note'> = async (input, ctx) => {
  await report(ctx.services, \`send \${input.idempotencyKey}\`);
  // Slow enough that every racing retry arrives while the first still runs.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return \`sent to \${input.to}\`;
};
`,
  'src/handlers/tools/build_report.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

${report}

export const buildReportHandler: ToolHandler<'build_report'> = async (input, ctx) => {
  for (let step = 0; step < input.steps; step++) {
    if (ctx.signal.aborted) {
      await report(ctx.services, \`aborted \${input.label}\`);
      throw ctx.signal.reason;
    }
    await ctx.progress(step, input.steps, \`step \${step + 1} of \${input.steps}\`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return \`report \${input.label}\`;
};
`,
};

let recorder: Server;
const runs: string[] = [];
let dir = '';
let worker: Wrangler;
let vars: Record<string, string> = {};

beforeAll(async () => {
  installWorkersHarness();
  recorder = createServer((req, res) => {
    runs.push(decodeURIComponent((req.url ?? '/').slice(1)));
    res.end();
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const { port } = recorder.address() as { port: number };
  dir = generateWorker('workers-edge', manifest, handlers);
  vars = { EDGE_RECORDER: `http://127.0.0.1:${port}`, EDGE_STATE_KEY: 'edge-state-key-0123456789abcdef-012345' };
  worker = await startWrangler(dir, vars);
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await new Promise((resolve) => recorder?.close(resolve));
});

const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, id = 1) =>
  rpc(worker.url, 'tools/call', { name, arguments: args, _meta: envelope(), ...extra }, undefined, id);
const task = (method: string, params: Record<string, unknown>) =>
  rpc(worker.url, method, { ...params, _meta: envelope(withTasks) });
const count = (what: string): number => runs.filter((run) => run === what).length;
const textOf = (body: any): string => body.error?.message ?? body.result?.content?.[0]?.text ?? JSON.stringify(body);

/** Polls tasks/get until `done` holds (bounded); returns the last result. */
async function pollUntil(taskId: string, done: (result: any) => boolean): Promise<any> {
  for (const end = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const { body } = await task('tasks/get', { taskId });
    if (done(body.result) || Date.now() > end) return body.result;
  }
}

describe('a Worker under wrangler dev, its state in a Durable Object', () => {
  it('runs an approval exactly once across concurrent replays, and still refuses it after a restart', async () => {
    const first = await call('remove_record', { id: 'r1' });
    expect(first.body.result.resultType).toBe('input_required');
    const state = first.body.result.requestState as string;
    const replay = (id: number) =>
      call('remove_record', { id: 'r1' }, { inputResponses: accept, requestState: state }, id);
    const texts = (await Promise.all(Array.from({ length: 10 }, (_, i) => replay(i + 2)))).map((a) => textOf(a.body));
    const used =
      'This approval of "Remove a record" (remove_record) was already used; ' +
      'nothing was done. Call the tool again to ask for a new approval.';
    expect(texts.filter((text) => text === 'removed r1')).toHaveLength(1);
    expect(new Set(texts.filter((text) => text !== 'removed r1'))).toEqual(new Set([used]));
    expect(count('remove r1')).toBe(1);
    // A new isolate knows nothing in memory: the Durable Object remembers the approval was spent.
    await worker.stop();
    worker = await startWrangler(dir, vars);
    expect(textOf((await replay(20)).body)).toBe(used);
    expect(count('remove r1')).toBe(1);
  }, 300_000);

  it('runs concurrent calls with one idempotency key once, and every one gets its result', async () => {
    const args = { to: 'ada', idempotencyKey: 'key-0000-0001' };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call('send_note', args, {}, i + 1)));
    expect(new Set(answers.map((answer) => textOf(answer.body)))).toEqual(new Set(['sent to ada']));
    expect(count('send key-0000-0001')).toBe(1);
    expect(textOf((await call('send_note', args)).body)).toBe('sent to ada');
    expect(count('send key-0000-0001')).toBe(1);
  }, 120_000);

  it('reads a task started in one request from others, and cancels it from another', async () => {
    const started = await rpc(worker.url, 'tools/call', {
      name: 'build_report',
      arguments: { label: 'q3', steps: 50 },
      _meta: envelope(withTasks),
    });
    expect(started.body.result.resultType).toBe('task');
    const taskId = started.body.result.taskId as string;
    const working = await pollUntil(taskId, (result) => /^step [2-9]/.test(result?.statusMessage ?? ''));
    expect(working).toMatchObject({ taskId, status: 'working' });
    expect((await task('tasks/cancel', { taskId })).body.result.resultType).toBe('complete');
    expect((await pollUntil(taskId, (result) => result?.status !== 'working')).status).toBe('cancelled');
    for (const end = Date.now() + 10_000; count('aborted q3') === 0 && Date.now() < end; )
      await new Promise((resolve) => setTimeout(resolve, 50));
    // The handler saw its signal and reported it: the Worker kept its isolate until the handler returned.
    expect(count('aborted q3')).toBe(1);
  }, 120_000);

  it('runs a short task to its result after the answer that started it', async () => {
    const started = await rpc(worker.url, 'tools/call', {
      name: 'build_report',
      arguments: { label: 'q4', steps: 2 },
      _meta: envelope(withTasks),
    });
    const taskId = started.body.result.taskId as string;
    const done = await pollUntil(taskId, (result) => result?.status !== 'working');
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'report q4' }] });
  }, 120_000);

  it('bundles with build:workers, which names a handler import a Worker cannot load', () => {
    expect(buildWorker(dir).status).toBe(0);
    const handler = path.join(dir, 'src', 'handlers', 'tools', 'send_note.ts');
    const original = readFileSync(handler, 'utf8');
    writeFileSync(handler, `import 'pg-native';\n${original}`);
    try {
      const broken = buildWorker(dir);
      expect(broken.status).not.toBe(0);
      expect(broken.output).toContain('Could not resolve "pg-native"');
    } finally {
      writeFileSync(handler, original);
    }
  }, 300_000);
});
