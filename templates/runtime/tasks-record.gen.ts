/**
 * A durable task as the store keeps it and the wire shows it (tasks.gen.ts runs them): the record, its wire form,
 * the extension's capability check and the params schema of the `tasks/*` methods.
 */
import {
  isInputRequiredResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AskedTasks } from './tasks-listen.gen.js';

export const tasksExtension = 'io.modelcontextprotocol/tasks';

/** How often a worker renews its lease and reads the cancel flag; the lease lapses after three missed beats. */
export const heartbeatMs = 1_000;
export const leaseMs = 3 * heartbeatMs;

export type Status = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';
export type Params = Readonly<Record<string, unknown>>;
export type Handler = (
  request: { method: string; params?: Params },
  ctx: ServerContext,
) => Promise<Record<string, unknown>>;

/** A task as the store keeps it (JSON under `task:<id>`); `params` is the call, kept to run it again after input. */
export interface TaskRecord {
  readonly taskId: string;
  readonly principal: string;
  status: Status;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly params: Params;
  /** The call's `_meta` envelope (its client capabilities): every round's input requests are checked against it. */
  readonly envelope: Readonly<Record<string, unknown>>;
  round: number;
  inputRequests?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  result?: Record<string, unknown>;
  error?: { readonly code: number; readonly message: string };
}

export const terminal = (status: Status): boolean =>
  status === 'completed' || status === 'cancelled' || status === 'failed';

/** How one round of a task's handler ended: cancelled, or its result, or the error it threw. */
export interface RoundOutcome {
  readonly cancelled: boolean;
  readonly result: Record<string, unknown> | undefined;
  readonly error: unknown;
  /** The last progress message, the task's status message. */
  readonly message: string | undefined;
}

/** Writes `outcome` into `record`; `log` gets an error the client is not shown. */
export function recordOutcome(record: TaskRecord, outcome: RoundOutcome, log: (message: string) => void): void {
  const { result, error } = outcome;
  if (outcome.message !== undefined) record.statusMessage = outcome.message;
  if (outcome.cancelled) record.status = 'cancelled';
  else if (result !== undefined && isInputRequiredResult(result)) {
    record.status = 'input_required';
    record.inputRequests = { ...(result.inputRequests ?? {}) };
    record.inputResponses = {};
    if (result.requestState === undefined) delete record.requestState;
    else record.requestState = result.requestState;
  } else if (result !== undefined) {
    record.status = 'completed';
    const { resultType: _resultType, ...plain } = result;
    record.result = plain;
  } else {
    record.status = 'failed';
    const code = error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError;
    // Only a protocol error's message is the client's to see; anything else stays on stderr.
    if (!(error instanceof ProtocolError)) log(`task ${record.taskId} failed: ${String(error)}`);
    const text = error instanceof ProtocolError ? error.message : 'The task failed. Details were logged on the server.';
    record.error = { code, message: text };
  }
  if (terminal(record.status)) {
    delete record.inputRequests;
    delete record.inputResponses;
    delete record.requestState;
  }
}

/** Whether a request's `_meta` envelope declares the extension in its client capabilities. */
export function declaresIn(envelope: Readonly<Record<string, unknown>> | undefined): boolean {
  const capabilities = envelope?.['io.modelcontextprotocol/clientCapabilities'] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  return capabilities?.extensions?.[tasksExtension] !== undefined;
}

/** Whether the request's own client capabilities declare the extension (per request: there is no session). */
export const declares = (ctx: ServerContext): boolean =>
  declaresIn((ctx.mcpReq as { envelope?: Record<string, unknown> }).envelope);

/** A JSON-RPC error answer to the HTTP request `id`. */
export const rpcError = (status: number, id: unknown, error: AskedTasks['refusal']): Response =>
  Response.json({ jsonrpc: '2.0', id, error }, { status });

export const missing = (): MissingRequiredClientCapabilityError =>
  new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [tasksExtension]: {} } } });

/** A Standard Schema of a task method's params, which the SDK checks before the handler runs. */
export type ParamsSchema = {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { value: Params } | { issues: { message: string }[] };
  };
};

/**
 * The params of a task method: an object with a string `taskId`. (The SDK lifts `inputResponses` of tasks/update out
 * of the params, as on any retry: it reaches the handler as `ctx.mcpReq.inputResponses`.)
 */
export const taskIdSchema: ParamsSchema = {
  '~standard': {
    version: 1,
    vendor: 'mcp-gen',
    validate: (value) => {
      const params = value as Record<string, unknown> | null;
      return params !== null && typeof params === 'object' && typeof params.taskId === 'string'
        ? { value: params }
        : { issues: [{ message: 'taskId must be a string' }] };
    },
  },
};

/** The wire form of a task: the `Task` fields, plus what `tasks/get` inlines for its status. */
export function wireTask(record: TaskRecord, detailed: boolean): Record<string, unknown> {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
    pollIntervalMs: heartbeatMs,
    ...(detailed && record.status === 'input_required' ? { inputRequests: record.inputRequests ?? {} } : {}),
    ...(detailed && record.status === 'completed' ? { result: record.result } : {}),
    ...(detailed && record.status === 'failed' ? { error: record.error } : {}),
  };
}

/**
 * A `subscriptions/listen` request that asks for `taskIds`, or null for any other message: its id, the ids, the
 * request without them (what the SDK serves), and why it is refused, if it is.
 */
export function askedTasks(body: unknown): AskedTasks | null {
  const message = body as {
    id?: string | number;
    method?: unknown;
    params?: { notifications?: Record<string, unknown>; _meta?: Record<string, unknown> };
  };
  const filter = message?.method === 'subscriptions/listen' ? message.params?.notifications : undefined;
  if (message.id === undefined || typeof filter !== 'object' || filter === null || !('taskIds' in filter)) return null;
  const { taskIds, ...rest } = filter;
  const forwarded = { ...message, params: { ...message.params, notifications: rest } };
  const listed = Array.isArray(taskIds) && taskIds.every((id) => typeof id === 'string');
  // The extension: a client that did not declare it may not ask for task notifications.
  const error = !declaresIn(message.params?._meta)
    ? missing()
    : listed
      ? null
      : new ProtocolError(ProtocolErrorCode.InvalidParams, 'notifications.taskIds must be an array of task ids');
  // A plain JSON-RPC error object: it is written as is, over HTTP and stdio.
  const refusal = error === null ? null : { code: error.code, message: error.message, data: error.data };
  return { id: message.id, taskIds: listed ? (taskIds as string[]) : [], forwarded, refusal };
}
