import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, generateAndCompile, repoRoot, startHttpServer, version, type RunningServer } from './harness.js';
import { listen } from './notify-support.js';
import { until } from '../../support/dev-process.js';
import { startRedis, type RunningRedis } from './redis.js';
import {
  call,
  eventually,
  extension,
  handlers,
  manifest,
  pollUntil,
  settled,
  startReport,
  subscriptionKey,
  task,
  withTasks,
} from './tasks-support.js';

// Durable tasks (tasks.gen.ts) over real HTTP on Redis shared by two instances: any instance answers for any task,
// a cancel through one reaches the worker on the other, a task outlives the instance that created it.

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
