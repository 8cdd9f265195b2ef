import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, generateAndCompile, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';
import { listen } from './notify-support.js';
import { startRawStdio } from '../../support/servers.js';
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

// Durable tasks (tasks.gen.ts) on the memory store inside one process, over HTTP and stdio: each method, the gate
// for clients without the extension, the ttl.

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
