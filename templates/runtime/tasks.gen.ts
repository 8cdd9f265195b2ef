/**
 * Durable tasks: the `io.modelcontextprotocol/tasks` extension, for tools with `task: optional | required`.
 *
 * A `tools/call` of such a tool from a request that declares the extension is written to the state store as a task
 * before its id is answered (`resultType: "task"`); the handler then runs in this process, through the SDK's own
 * `tools/call` handler (so validation and result shaping are those of a plain call), with a signal of its own and
 * progress that becomes the task's `statusMessage`. `tasks/get`, `tasks/update` and `tasks/cancel` read and write the
 * store only, so with `store: redis` every instance answers for every task: a cancel is a flag the worker reads on its
 * heartbeat, and a task whose heartbeat lapsed (its instance died) is reported `failed`. A handler that asks for input
 * (`inputRequired`) parks the task in `input_required`; the answers come with `tasks/update`, and the instance that
 * receives the last of them runs the handler again with them, as a multi round-trip retry.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import type { ChangeBus } from './notify.gen.js';
import { principalOf } from './call.gen.js';
import type { TaskHooks } from './hooks.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import { StoreUnavailableError, type StateStore, withdraw } from './store.gen.js';
import { listenOnStdio, mergeTaskStream } from './tasks-listen.gen.js';
import {
  askedTasks,
  declares,
  type Handler,
  heartbeatMs,
  leaseMs,
  missing,
  type Params,
  recordOutcome,
  type ParamsSchema,
  rpcError,
  type TaskRecord,
  taskIdSchema,
  terminal,
  wireTask,
} from './tasks-record.gen.js';

/**
 * The task service of one process over `store`; `log` gets each failure the client only sees as `failed`. Each
 * write of a task is published on `bus` (a `task` event, tasks-listen.gen.ts), for listen streams on any instance.
 */
export function taskHooks(
  registry: RegistrySpec,
  store: StateStore,
  log: (message: string) => void,
  bus: ChangeBus | null = null,
): TaskHooks {
  const tools = new Map(registry.tools.filter((tool) => tool.task !== 'none').map((tool) => [tool.name, tool]));
  /** Workers running in this process, by task id: a cancel received here aborts at once. */
  const running = new Map<string, AbortController>();
  /** Each worker's whole run, outcome recorded included. */
  const pending = new Set<Promise<void>>();
  const key = (id: string): string => `task:${id}`;

  // A task's end is claimed once under `:end`: a later one (a worker waking after its lease lapsed) changes nothing.
  const read = async (id: string): Promise<TaskRecord | null> => {
    const [end, text] = await Promise.all([store.get(`${key(id)}:end`), store.get(key(id))]);
    return JSON.parse(end ?? text ?? 'null') as TaskRecord | null;
  };
  /** Writes `record`; the task as it now stands (the earlier end, when another write ended it first). */
  const write = async (record: TaskRecord): Promise<TaskRecord> => {
    record.lastUpdatedAt = new Date().toISOString();
    const left = Math.max(1, Date.parse(record.createdAt) + record.ttlMs - Date.now());
    const text = JSON.stringify(record);
    if (!terminal(record.status)) await store.put(key(record.taskId), text, left);
    else if (!(await store.claim(`${key(record.taskId)}:end`, text, left)))
      return (await read(record.taskId)) ?? record;
    // Every change of a task passes here: listeners hear the task as tasks/get would answer it now.
    bus?.publish({ kind: 'task', principal: record.principal, task: wireTask(record, true) });
    return record;
  };

  /** Of `ids`, the tasks that exist and are `principal`'s: those a listen stream may hear of. */
  const agree = async (ids: readonly string[], principal: string): Promise<string[]> => {
    const records = await Promise.all([...new Set(ids)].map(read));
    return records.flatMap((record) => (record !== null && record.principal === principal ? [record.taskId] : []));
  };

  /** The caller's task, or -32602 as for an unknown id: another principal's task is not revealed. */
  const owned = async (params: Params, ctx: ServerContext): Promise<TaskRecord> => {
    if (!declares(ctx)) throw missing();
    const record = await read(String(params.taskId));
    if (record === null || record.principal !== principalOf(ctx).id)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${String(params.taskId)}`, {
        taskId: params.taskId,
      });
    if (record.status === 'working' && (await store.get(`${key(record.taskId)}:lease`)) === null) {
      // No heartbeat: the instance running it is gone. Read again, in case it settled between the two reads.
      const again = await read(record.taskId);
      if (again !== null && again.status === 'working') {
        again.status = 'failed';
        again.error = {
          code: ProtocolErrorCode.InternalError,
          message: 'The task stopped: the server instance running it went away before it finished (heartbeat lapsed).',
        };
        return write(again);
      }
      return again ?? record;
    }
    return record;
  };

  /** `run`; a store that does not answer is -32603 in plain words, its host and error on stderr only. */
  const fenced = <T>(method: string, run: () => Promise<T>): Promise<T> =>
    run().catch((error: unknown) => {
      if (!(error instanceof StoreUnavailableError)) throw error;
      log(`${method} refused: ${error.message}`);
      const text = `The server's state store is unavailable, so ${method} was not done; try again later.`;
      throw new ProtocolError(ProtocolErrorCode.InternalError, text);
    });

  /** Runs one round of the task's handler here, renewing the lease until it settles, then records the outcome. */
  const work = (record: TaskRecord, call: Handler, ctx: ServerContext): void => {
    const controller = new AbortController();
    running.set(record.taskId, controller);
    let message: string | undefined;
    const lease = `${key(record.taskId)}:lease`;
    const beat = setInterval(() => {
      void (async () => {
        await store.put(lease, String(record.round), leaseMs);
        if ((await store.get(`${key(record.taskId)}:cancel`)) !== null) controller.abort();
        if (message !== undefined && message !== record.statusMessage) {
          record.statusMessage = message;
          await write(record);
        }
      })().catch((error: unknown) => log(`task ${record.taskId}: heartbeat failed: ${String(error)}`));
    }, heartbeatMs);
    // A Worker's timers are numbers, without unref; there the execution context keeps the isolate instead.
    if (typeof beat === 'object') beat.unref();
    // The call's context, whichever request resumed it: sealed states are bound to the method that issued them.
    const mcpReq = {
      ...ctx.mcpReq,
      method: 'tools/call',
      signal: controller.signal,
      _meta: { ...(record.params._meta as object | undefined), progressToken: record.taskId },
      envelope: record.envelope,
      inputResponses: record.inputResponses ?? {},
      requestState: () => record.requestState,
      log: async () => {},
      // The handler's progress is the task's status message, written on the next beat.
      notify: async (notification: { method: string; params?: Record<string, unknown> }) => {
        const p = notification.params ?? {};
        if (notification.method === 'notifications/progress')
          message =
            typeof p.message === 'string' ? p.message : `${p.progress}${p.total === undefined ? '' : `/${p.total}`}`;
      },
    };
    const run = Promise.resolve()
      .then(() => call({ method: 'tools/call', params: record.params }, { ...ctx, mcpReq } as unknown as ServerContext))
      .then(
        (result) => settle(record, controller, result, undefined, message),
        (error: unknown) => settle(record, controller, undefined, error, message),
      )
      .catch((error: unknown) => log(`task ${record.taskId}: could not record its outcome: ${String(error)}`))
      .finally(() => {
        clearInterval(beat);
        running.delete(record.taskId);
        pending.delete(run);
        void store.remove(lease).catch(() => {});
      });
    pending.add(run);
  };

  const settle = async (
    record: TaskRecord,
    controller: AbortController,
    result: Record<string, unknown> | undefined,
    error: unknown,
    message: string | undefined,
  ): Promise<void> => {
    const cancelled = controller.signal.aborted || (await store.get(`${key(record.taskId)}:cancel`)) !== null;
    recordOutcome(record, { cancelled, result, error, message }, log);
    await write(record);
  };

  /** Creates the task in the store (its lease first, so no reader takes it for dead), then starts it here. */
  const create = async (request: { params?: Params }, ctx: ServerContext, call: Handler, ttlMs: number) => {
    const now = new Date().toISOString();
    const { inputResponses: _responses, requestState: _state, ...params } = request.params ?? {};
    // A call that answered earlier rounds (MRTR) keeps its answers and state for the task's first run.
    const state = ctx.mcpReq.requestState();
    const record: TaskRecord = {
      taskId: randomUUID(),
      principal: principalOf(ctx).id,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      params,
      envelope: { ...((ctx.mcpReq as { envelope?: Record<string, unknown> }).envelope ?? {}) },
      round: 0,
      ...(ctx.mcpReq.inputResponses === undefined ? {} : { inputResponses: { ...ctx.mcpReq.inputResponses } }),
      ...(typeof state === 'string' ? { requestState: state } : {}),
    };
    await store.put(`${key(record.taskId)}:lease`, '0', leaseMs);
    await write(record);
    work(record, call, ctx);
    return { resultType: 'task', ...wireTask(record, false) };
  };

  return {
    settled: async () => void (await Promise.allSettled([...pending])),
    listen(body, principal, signal, forward) {
      const asked = bus === null ? null : askedTasks(body);
      if (asked === null || bus === null) return null;
      return (async () => {
        if (asked.refusal !== null) return rpcError(asked.refusal.code === -32021 ? 400 : 200, asked.id, asked.refusal);
        const agreed = await agree(asked.taskIds, principal);
        const sdk = await forward(asked.forwarded);
        if (!sdk.ok || !(sdk.headers.get('content-type') ?? '').includes('text/event-stream')) return sdk;
        return mergeTaskStream(sdk, agreed, principal, asked.id, bus, signal);
      })();
    },
    stdio(transport) {
      if (bus === null) return transport;
      // stdio has no auth: every task there is the anonymous principal's.
      return listenOnStdio(transport, bus, (message) => {
        const asked = askedTasks(message);
        if (asked === null) return null;
        if (asked.refusal !== null) return Promise.resolve(asked);
        return agree(asked.taskIds, 'anonymous').then((agreed) => ({ ...asked, taskIds: agreed }));
      });
    },
    attach(server, served) {
      // The SDK's handler table: its own tools/call stays the one that runs the handler, validated and shaped.
      const sdk = server.server as unknown as {
        _getRequestHandler(method: string): Handler | undefined;
        _requestHandlers: Map<string, Handler>;
      };
      const call = sdk._getRequestHandler('tools/call');
      if (call === undefined) return;
      // Set directly: the SDK's wrapper would check a CreateTaskResult against CallToolResult.
      sdk._requestHandlers.set('tools/call', async (request, ctx) => {
        // A tool outside the selection is no task either: the SDK answers it as unknown.
        const tool = tools.get(String(request.params?.name));
        if (tool === undefined || !served(tool.name)) return call(request, ctx);
        if (!declares(ctx)) {
          if (tool.task === 'required') throw missing();
          return call(request, ctx);
        }
        // `taskStart: input`: the first round runs in the request, so it may ask for input before a task exists.
        if (tool.taskStart === 'input' && ctx.mcpReq.inputResponses === undefined) return call(request, ctx);
        return fenced('tools/call', () => create(request, ctx, call, tool.taskTtlMs));
      });
      const register = server.server.setRequestHandler.bind(server.server) as unknown as (
        method: string,
        schemas: { params: ParamsSchema },
        handler: (params: Params, ctx: ServerContext) => Promise<Record<string, unknown>>,
      ) => void;
      const set: typeof register = (method, schemas, handler) =>
        register(method, schemas, (params, ctx) => fenced(method, () => handler(params, ctx)));
      set('tasks/get', { params: taskIdSchema }, async (params, ctx) => ({
        resultType: 'complete',
        ...wireTask(await owned(params, ctx), true),
      }));
      set('tasks/cancel', { params: taskIdSchema }, async (params, ctx) => {
        const record = await owned(params, ctx);
        if (terminal(record.status)) return { resultType: 'complete' };
        // Cooperative: the flag reaches the worker on its next beat (on any instance); here it aborts at once.
        await store.put(`${key(record.taskId)}:cancel`, '1', record.ttlMs);
        running.get(record.taskId)?.abort();
        // A task waiting for input has no worker to notice: it is cancelled now.
        if (record.status === 'input_required') await settle(record, new AbortController(), undefined, null, undefined);
        return { resultType: 'complete' };
      });
      set('tasks/update', { params: taskIdSchema }, async (params, ctx) => {
        const record = await owned(params, ctx);
        if (record.status !== 'input_required') return { resultType: 'complete' };
        const pending = { ...(record.inputRequests ?? {}) };
        const answers = { ...(record.inputResponses ?? {}) };
        // Answers to keys the task did not ask for are ignored; each answered key leaves inputRequests.
        for (const [id, answer] of Object.entries(ctx.mcpReq.inputResponses ?? {}))
          if (Object.hasOwn(pending, id)) {
            answers[id] = answer;
            delete pending[id];
          }
        record.inputRequests = pending;
        record.inputResponses = answers;
        if (Object.keys(pending).length > 0) {
          await write(record);
          return { resultType: 'complete' };
        }
        // The last answer: one instance claims the next round and runs it; a round that failed to start is freed.
        const [round, mine] = [`${key(record.taskId)}:round:${record.round + 1}`, randomUUID()];
        try {
          if (!(await store.claim(round, mine, record.ttlMs))) return { resultType: 'complete' };
          record.round += 1;
          record.status = 'working';
          await store.put(`${key(record.taskId)}:lease`, String(record.round), leaseMs);
          await write(record);
        } catch (error) {
          withdraw(store, round, mine);
          throw error;
        }
        work(record, call, ctx);
        return { resultType: 'complete' };
      });
    },
  };
}
