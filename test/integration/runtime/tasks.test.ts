import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelope,
  generateAndCompile,
  repoRoot,
  rpc,
  startHttpServer,
  version,
  type RunningServer,
} from './harness.js';
import { listen } from './notify-support.js';
import { startRawStdio } from '../../support/servers.js';
import { until } from '../../support/dev-process.js';
import { startRedis, type RunningRedis } from './redis.js';

// Durable tasks (tasks.gen.ts) over real HTTP: on Redis shared by two instances (any instance answers for any task,
// a cancel through one reaches the worker on the other, a task outlives the instance that created it) and on the
// memory store inside one process (each method, the gate for clients without the extension, the ttl).

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'tasks.yaml');
const extension = 'io.modelcontextprotocol/tasks';
const subscriptionKey = 'io.modelcontextprotocol/subscriptionId';
const withTasks: Record<string, unknown> = { elicitation: { form: {} }, extensions: { [extension]: {} } };

// build_report appends "<label> aborted" to TASKS_EVENTS when its signal aborts, so a test sees the handler stop.
const handlers: Readonly<Record<string, string>> = {
  'src/handlers/tools/build_report.ts': `import { appendFileSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const buildReportHandler: ToolHandler<'build_report'> = async (input, ctx) => {
  for (let step = 0; step < input.steps; step++) {
    if (ctx.signal.aborted) {
      appendFileSync(process.env.TASKS_EVENTS ?? '', \`\${input.label} aborted\\n\`);
      throw ctx.signal.reason;
    }
    await ctx.progress(step, input.steps, \`\${input.label}: step \${step + 1} of \${input.steps}\`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return \`report \${input.label} in \${input.steps} steps\`;
};
`,
  'src/handlers/tools/export_archive.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const exportArchiveHandler: ToolHandler<'export_archive'> = async () => 'archive exported';
`,
  'src/handlers/tools/purge_records.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const purgeRecordsHandler: ToolHandler<'purge_records'> = async (input) => \`purged \${input.table}\`;
`,
};

const call = (server: RunningServer, name: string, args: Record<string, unknown>, capabilities = withTasks) =>
  rpc(server.url, 'tools/call', { name, arguments: args, _meta: envelope(capabilities) });

const task = (server: RunningServer, method: string, params: Record<string, unknown>, capabilities = withTasks) =>
  rpc(server.url, method, { ...params, _meta: envelope(capabilities) });

/** Polls tasks/get on `server` until `done` holds (at most `limitMs`); returns the last result. */
async function pollUntil(
  server: RunningServer,
  taskId: string,
  done: (result: any) => boolean,
  limitMs = 30_000,
): Promise<any> {
  const start = Date.now();
  for (;;) {
    const { body } = await task(server, 'tasks/get', { taskId });
    if (done(body.result) || Date.now() - start > limitMs) return body.result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The text of `file` once it exists (the handler writes it when it sees its signal), within 10 s. */
async function eventually(file: string): Promise<string> {
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return readFileSync(file, 'utf8');
}

const settled = (result: any): boolean => ['completed', 'failed', 'cancelled'].includes(result?.status);

/** Starts a build_report task on `server`; its id. */
async function startReport(server: RunningServer, label: string, steps: number): Promise<string> {
  const { body } = await call(server, 'build_report', { label, steps });
  expect(body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600_000, pollIntervalMs: 1000 });
  return body.result.taskId as string;
}

describe('durable tasks on Redis, two instances', () => {
  const events = path.join(repoRoot, '.test-out', 'runtime-tasks-redis.events');
  let redis: RunningRedis;
  let entry = '';
  let env: Record<string, string> = {};
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    entry = generateAndCompile(manifest, 'runtime-tasks-redis', handlers);
    rmSync(events, { force: true });
    redis = await startRedis();
    env = {
      TASKS_REDIS_URL: redis.url,
      TASKS_STATE_KEY: 'tasks-state-key-0123456789abcdef-0123456',
      TASKS_EVENTS: events,
    };
    [a, b] = await Promise.all([startHttpServer(entry, env), startHttpServer(entry, env)]);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  }, 120_000);

  it('a task created on A is polled to completed with its result on B', async () => {
    const taskId = await startReport(a, 'alpha', 5);
    const done = await pollUntil(b, taskId, settled);
    expect(done).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'report alpha in 5 steps' }] },
    });
  });

  it('a task cancelled through B stops on A: its handler sees ctx.signal aborted; it settles cancelled', async () => {
    const taskId = await startReport(a, 'beta', 600);
    // Progress becomes the status message, written by A's heartbeat and read on B.
    const working = await pollUntil(b, taskId, (result) => result?.statusMessage !== undefined);
    expect(working.status).toBe('working');
    expect(working.statusMessage).toMatch(/^beta: step \d+ of 600$/);
    const ack = await task(b, 'tasks/cancel', { taskId });
    expect(ack.body.result).toEqual({ resultType: 'complete', _meta: ack.body.result._meta });
    const done = await pollUntil(b, taskId, settled);
    expect(done.status).toBe('cancelled');
    expect(await eventually(events)).toBe('beta aborted\n');
  });

  it('a listen stream on B hears notifications/tasks of a task run on A, each as tasks/get answers it', async () => {
    const taskId = await startReport(a, 'epsilon', 25);
    // An unknown id is not agreed to; a stream that asked for tasks only stays open for them.
    const stream = await listen(b.url, { taskIds: [taskId, 'no-such-task'] }, 'tasks-1', withTasks);
    try {
      expect(stream.messages[0]).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { [subscriptionKey]: 'tasks-1' }, notifications: { taskIds: [taskId] } },
      });
      const isTask = (m: Record<string, any>) => m.method === 'notifications/tasks';
      // A's heartbeat writes the progress as the status message: a change of the task, heard on B.
      const working = await stream.next((m) => isTask(m) && m.params.statusMessage !== undefined, 20_000);
      expect(working.params).toMatchObject({
        _meta: { [subscriptionKey]: 'tasks-1' },
        taskId,
        status: 'working',
        ttlMs: 600_000,
        pollIntervalMs: 1000,
      });
      expect(working.params.statusMessage).toMatch(/^epsilon: step \d+ of 25$/);
      const completed = await stream.next((m) => isTask(m) && m.params.status === 'completed', 30_000);
      const { resultType: _type, _meta: _resultMeta, ...polled } = (await task(b, 'tasks/get', { taskId })).body.result;
      expect(polled.result).toEqual({ content: [{ type: 'text', text: 'report epsilon in 25 steps' }] });
      expect(completed).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tasks',
        params: { ...polled, _meta: { [subscriptionKey]: 'tasks-1' } },
      });
      expect(stream.messages.filter(isTask).every((m) => m.params.taskId === taskId)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('a listen request for taskIds without the extension is -32021 naming it', async () => {
    const response = await fetch(b.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'subscriptions/listen',
        params: { _meta: envelope({}), notifications: { taskIds: ['any'] } },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: {
        code: -32021,
        message: expect.any(String),
        data: { requiredCapabilities: { extensions: { [extension]: {} } } },
      },
    });
  });

  it('a task survives restarting A: completed if it finished, failed on lease lapse if killed mid-run', async () => {
    const finished = await startReport(a, 'gamma', 1);
    expect((await pollUntil(a, finished, settled)).status).toBe('completed');
    const midRun = await startReport(a, 'delta', 600);
    expect((await task(b, 'tasks/get', { taskId: midRun })).body.result.status).toBe('working');
    a.child.kill('SIGKILL');
    a = await startHttpServer(entry, env);
    expect((await task(a, 'tasks/get', { taskId: finished })).body.result).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'report gamma in 1 steps' }] },
    });
    const lapsed = await pollUntil(a, midRun, settled);
    expect(lapsed).toMatchObject({
      status: 'failed',
      error: {
        code: -32603,
        message: 'The task stopped: the server instance running it went away before it finished (heartbeat lapsed).',
      },
    });
    expect(lapsed.result).toBeUndefined();
    expect((await task(b, 'tasks/get', { taskId: midRun })).body.result.status).toBe('failed');
  });

  it('a task reported failed once its heartbeat lapsed stays failed when its stalled instance wakes up', async () => {
    const taskId = await startReport(a, 'stalled', 30);
    expect((await pollUntil(b, taskId, (result) => result?.statusMessage !== undefined)).status).toBe('working');
    // A stalled instance (a blocked event loop, a partition from Redis) renews nothing: B reports the task failed.
    a.child.kill('SIGSTOP');
    let lapsed: any;
    try {
      lapsed = await pollUntil(b, taskId, settled, 15_000);
    } finally {
      a.child.kill('SIGCONT');
    }
    const stopped = 'The task stopped: the server instance running it went away before it finished (heartbeat lapsed).';
    expect(lapsed).toMatchObject({ status: 'failed', error: { code: -32603, message: stopped } });
    // A wakes, its handler finishes (3 s at most) and records its outcome: a failed task must not change again.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const later = (await task(b, 'tasks/get', { taskId })).body.result;
    expect(later).toMatchObject({ status: 'failed', error: { code: -32603, message: stopped } });
    expect(later.result).toBeUndefined();
  });

  it('a destructive task asks for approval in the task: answered through B, it completes', async () => {
    const created = await call(a, 'purge_records', { table: 'logs' });
    const taskId = created.body.result.taskId as string;
    const parked = await pollUntil(b, taskId, (result) => result?.status !== 'working');
    expect(parked.status).toBe('input_required');
    expect(Object.keys(parked.inputRequests)).toEqual(['confirm']);
    expect(parked.inputRequests.confirm.method).toBe('elicitation/create');
    const answer = { confirm: { action: 'accept', content: { confirm: true } } };
    expect((await task(b, 'tasks/update', { taskId, inputResponses: answer })).body.result.resultType).toBe('complete');
    const done = await pollUntil(a, taskId, settled);
    expect(done.error).toBeUndefined();
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'purged logs' }] } });
  });

  it('a tasks/update whose round claim was lost in a Redis stall is -32603; its retry runs the round', async () => {
    const taskId = (await call(a, 'purge_records', { table: 'audit' })).body.result.taskId as string;
    expect((await pollUntil(b, taskId, (result) => result?.status !== 'working')).status).toBe('input_required');
    // Redis holds writes for 9.5 s and answers reads: B's claim of the next round, sent within 4.5 s, times out after
    // 5 s and is applied when Redis resumes (B's later commands queue behind it and are answered within 5 s).
    const pause = spawnSync('redis-cli', ['-p', String(redis.port), 'CLIENT', 'PAUSE', '9500', 'WRITE'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(pause.stdout.trim()).toBe('OK');
    const answer = { confirm: { action: 'accept', content: { confirm: true } } };
    expect((await task(b, 'tasks/update', { taskId, inputResponses: answer })).body.error).toEqual({
      code: -32603,
      message: "The server's state store is unavailable, so tasks/update was not done; try again later.",
    });
    // The client does as told: the round B could not start is free again, and this retry runs it.
    expect((await task(b, 'tasks/update', { taskId, inputResponses: answer })).body.result.resultType).toBe('complete');
    const done = await pollUntil(a, taskId, settled, 15_000);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'purged audit' }] } });
  });

  // Last in this suite: Redis comes back empty.
  it('with Redis down, tasks/get and a task call are -32603 in plain words; host and cause go to stderr', async () => {
    const taskId = await startReport(a, 'outage', 1);
    await redis.stop();
    const plain = (method: string) => ({
      code: -32603,
      message: `The server's state store is unavailable, so ${method} was not done; try again later.`,
    });
    expect((await task(b, 'tasks/get', { taskId })).body.error).toEqual(plain('tasks/get'));
    expect((await call(b, 'build_report', { label: 'outage', steps: 1 })).body.error).toEqual(plain('tools/call'));
    // The log line goes out on stderr, a pipe of its own, which this process may read after the answer.
    const logged = (method: string) => new RegExp(`${method} refused: redis redis://127\\.0\\.0\\.1:\\d+: `);
    await until(() => logged('tools/call').test(b.stderr()), 'the refusal on stderr', b.stderr);
    expect(b.stderr()).toMatch(logged('tasks/get'));
    expect(b.stderr()).toMatch(logged('tools/call'));
    redis = await startRedis(redis.port);
  });
});

describe('durable tasks on the memory store', () => {
  const events = path.join(repoRoot, '.test-out', 'runtime-tasks-memory.events');
  let server: RunningServer;
  let entry = '';

  beforeAll(async () => {
    const source = path.join(repoRoot, '.test-out', 'tasks-memory.yaml');
    // Memory, and stdio beside HTTP (stdio is then what the entry starts without --transport).
    const text = readFileSync(manifest, 'utf8').replace(/^store: .*$/m, 'store: { type: memory }');
    writeFileSync(source, text.replace(/^transports:\n/m, 'transports:\n  stdio: {}\n'));
    entry = generateAndCompile(source, 'runtime-tasks-memory', handlers);
    rmSync(events, { force: true });
    server = await startHttpServer(entry, {
      TASKS_STATE_KEY: 'tasks-state-key-0123456789abcdef-0123456',
      TASKS_EVENTS: events,
    });
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('declares the extension in server/discover', async () => {
    const { body } = await rpc(server.url, 'server/discover', { _meta: envelope() });
    expect(body.result.capabilities.extensions).toEqual({ [extension]: {} });
  });

  it('tasks/get answers a working task at once, then its result; ttlMs is the manifest taskTtl', async () => {
    const taskId = await startReport(server, 'one', 3);
    const first = await task(server, 'tasks/get', { taskId });
    expect(first.body.result).toMatchObject({ resultType: 'complete', taskId, status: 'working', ttlMs: 600_000 });
    expect(first.body.result.result).toBeUndefined();
    const done = await pollUntil(server, taskId, settled);
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'report one in 3 steps' }] });
    expect(Date.parse(done.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
  });

  it('keeps a task for its ttl and no longer: then it is an unknown task (-32602)', async () => {
    const created = await call(server, 'export_archive', {});
    expect(created.body.result.ttlMs).toBe(2000);
    const taskId = created.body.result.taskId as string;
    expect((await pollUntil(server, taskId, settled)).status).toBe('completed');
    const start = Date.now();
    let error: any;
    while (Date.now() - start < 15_000) {
      error = (await task(server, 'tasks/get', { taskId })).body.error;
      if (error !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(error).toMatchObject({ code: -32602, message: `Unknown task: ${taskId}` });
    expect(Date.now() - start).toBeGreaterThanOrEqual(1000);
  });

  it('tasks/cancel is an empty ack; the handler sees its signal aborted and the task settles cancelled', async () => {
    const taskId = await startReport(server, 'two', 600);
    const ack = await task(server, 'tasks/cancel', { taskId });
    expect(ack.body.result.resultType).toBe('complete');
    expect(Object.keys(ack.body.result).filter((key) => key !== '_meta')).toEqual(['resultType']);
    expect((await pollUntil(server, taskId, settled)).status).toBe('cancelled');
    expect(await eventually(events)).toBe('two aborted\n');
    // Idempotent on a settled task.
    expect((await task(server, 'tasks/cancel', { taskId })).body.result.resultType).toBe('complete');
  });

  it('tasks/update answers a parked approval; a partial or unknown answer keeps it parked', async () => {
    const taskId = (await call(server, 'purge_records', { table: 'users' })).body.result.taskId as string;
    expect((await pollUntil(server, taskId, (result) => result?.status !== 'working')).status).toBe('input_required');
    const ignored = await task(server, 'tasks/update', { taskId, inputResponses: { other: { action: 'accept' } } });
    expect(ignored.body.result.resultType).toBe('complete');
    expect((await task(server, 'tasks/get', { taskId })).body.result.status).toBe('input_required');
    const answer = { confirm: { action: 'accept', content: { confirm: true } } };
    await task(server, 'tasks/update', { taskId, inputResponses: answer });
    expect((await pollUntil(server, taskId, settled)).result.content[0].text).toBe('purged users');
  });

  it('a listen stream hears a parked task with its inputRequests, then its completion after tasks/update', async () => {
    const taskId = (await call(server, 'purge_records', { table: 'orders' })).body.result.taskId as string;
    const parked = await pollUntil(server, taskId, (result) => result?.status !== 'working');
    expect(parked.status).toBe('input_required');
    // Asked together with a list change this server does not declare: only the tasks are agreed to.
    const stream = await listen(server.url, { taskIds: [taskId], toolsListChanged: true }, 5, withTasks);
    try {
      expect(stream.messages[0]?.params).toEqual({
        _meta: { [subscriptionKey]: 5 },
        notifications: { taskIds: [taskId] },
      });
      const isTask = (m: Record<string, any>) => m.method === 'notifications/tasks';
      // An answer to a key it did not ask for leaves it parked, and says so with its open inputRequests.
      await task(server, 'tasks/update', { taskId, inputResponses: { other: { action: 'accept' } } });
      const still = await stream.next((m) => isTask(m) && m.params.status === 'input_required');
      const { resultType: _t, _meta: _m, ...open } = (await task(server, 'tasks/get', { taskId })).body.result;
      expect(Object.keys(open.inputRequests)).toEqual(['confirm']);
      expect(still.params).toEqual({ ...open, _meta: { [subscriptionKey]: 5 } });
      const answer = { confirm: { action: 'accept', content: { confirm: true } } };
      await task(server, 'tasks/update', { taskId, inputResponses: answer });
      const done = await stream.next((m) => isTask(m) && m.params.status === 'completed');
      const {
        resultType: _type,
        _meta: _resultMeta,
        ...polled
      } = (await task(server, 'tasks/get', { taskId })).body.result;
      expect(done.params).toEqual({ ...polled, _meta: { [subscriptionKey]: 5 } });
      expect(polled.result).toEqual({ content: [{ type: 'text', text: 'purged orders' }] });
      // The last answer puts the task back to work in one write (no inputRequests then); no list change arrives.
      expect(stream.messages.slice(1).map((m) => [m.method, m.params.status, m.params.inputRequests])).toEqual([
        ['notifications/tasks', 'input_required', open.inputRequests],
        ['notifications/tasks', 'working', undefined],
        ['notifications/tasks', 'completed', undefined],
      ]);
    } finally {
      stream.close();
    }
  });

  it('unknown task ids are -32602 for get, update and cancel', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { body } = await task(server, method, { taskId: 'no-such-task', inputResponses: {} });
      expect(body.error).toMatchObject({ code: -32602, message: 'Unknown task: no-such-task' });
    }
  });

  it('a client without the extension: the plain result for optional, -32021 for required and for tasks/*', async () => {
    const plain = await call(server, 'build_report', { label: 'plain', steps: 1 }, { elicitation: { form: {} } });
    expect(plain.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'report plain in 1 steps' }],
    });
    const required = await call(server, 'export_archive', {}, { elicitation: { form: {} } });
    expect(required.status).toBe(400);
    expect(required.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [extension]: {} } } },
    });
    const gated = await task(server, 'tasks/get', { taskId: 'any' }, { elicitation: { form: {} } });
    expect(gated.body.error.code).toBe(-32021);
    // The same tool with the extension: a task.
    expect((await call(server, 'export_archive', {})).body.result.resultType).toBe('task');
  });

  it('a legacy (2025-11-25) session gets the plain result of an optional task tool', async () => {
    const legacy = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const post = async (body: Record<string, unknown>, session?: string) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: session === undefined ? legacy : { ...legacy, 'mcp-session-id': session },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
      return { session: response.headers.get('mcp-session-id') ?? undefined, body: JSON.parse(json) };
    };
    const init = await post({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(init.body.result.protocolVersion).toBe('2025-11-25');
    await post({ method: 'notifications/initialized' }, init.session);
    const answer = await post(
      { id: 2, method: 'tools/call', params: { name: 'build_report', arguments: { label: 'old', steps: 1 } } },
      init.session,
    );
    expect(answer.body.result.content).toEqual([{ type: 'text', text: 'report old in 1 steps' }]);
    expect(answer.body.result.taskId).toBeUndefined();
  });

  it('on stdio a listen subscription for a task hears its changes, tagged with its id; -32021 without', async () => {
    const stdio = startRawStdio(entry, { TASKS_STATE_KEY: 'tasks-state-key-0123456789abcdef-0123456' });
    try {
      const meta = envelope(withTasks);
      const created = await stdio.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'build_report', arguments: { label: 'piped', steps: 15 }, _meta: meta },
      });
      const taskId = (created.result as { taskId: string }).taskId;
      const subscribe = { taskIds: [taskId, 'no-such-task'] };
      stdio.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 'sub',
          method: 'subscriptions/listen',
          params: { _meta: meta, notifications: subscribe },
        }),
      );
      const parsed = (): Record<string, any>[] => stdio.lines.map((line) => JSON.parse(line) as Record<string, any>);
      const until = async (match: (m: Record<string, any>) => boolean): Promise<Record<string, any>> => {
        for (let i = 0; i < 300 && !parsed().some(match); i++) await new Promise((resolve) => setTimeout(resolve, 100));
        return parsed().find(match) ?? {};
      };
      expect(await until((m) => m.method === 'notifications/subscriptions/acknowledged')).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: { [subscriptionKey]: 'sub' }, notifications: { taskIds: [taskId] } },
      });
      const done = await until((m) => m.method === 'notifications/tasks' && m.params.status === 'completed');
      const polled = await stdio.request({
        jsonrpc: '2.0',
        id: 2,
        method: 'tasks/get',
        params: { taskId, _meta: meta },
      });
      const { resultType: _type, _meta: _resultMeta, ...task } = polled.result as Record<string, unknown>;
      expect(done).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/tasks',
        params: { ...task, _meta: { [subscriptionKey]: 'sub' } },
      });
      expect(task.result).toEqual({ content: [{ type: 'text', text: 'report piped in 15 steps' }] });
      // The client ends the subscription; a listen request for tasks without the extension is refused.
      stdio.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'sub', _meta: meta },
        }),
      );
      const refused = await stdio.request({
        jsonrpc: '2.0',
        id: 3,
        method: 'subscriptions/listen',
        params: { _meta: envelope({}), notifications: { taskIds: [taskId] } },
      });
      expect(refused.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [extension]: {} } } },
      });
    } finally {
      stdio.child.kill('SIGTERM');
    }
  });

  it('works on stdio too: a task is created, polled to its result on the same connection', async () => {
    const stdio = startRawStdio(entry, { TASKS_STATE_KEY: 'tasks-state-key-0123456789abcdef-0123456' });
    try {
      const meta = envelope(withTasks);
      const created = await stdio.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'build_report', arguments: { label: 'stdio', steps: 2 }, _meta: meta },
      });
      const taskId = (created.result as { taskId: string }).taskId;
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      let result: any;
      for (let id = 2; id < 300; id++) {
        result = (await stdio.request({ jsonrpc: '2.0', id, method: 'tasks/get', params: { taskId, _meta: meta } }))
          .result;
        if (settled(result)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(result).toMatchObject({
        status: 'completed',
        result: { content: [{ type: 'text', text: 'report stdio in 2 steps' }] },
      });
    } finally {
      stdio.child.kill('SIGTERM');
    }
  });
});
