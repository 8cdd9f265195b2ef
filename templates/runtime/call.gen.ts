/**
 * One tool call: the handler's context, the input's defaults, the guard (approval, idempotency) and the shaped result,
 * internals kept out of errors (stacks go to stderr only). Handles, approvals and tasks join through the hooks
 * declared here (handles.gen.ts, approval.gen.ts, tasks.gen.ts); register.gen.ts registers each tool with callTool.
 */
import {
  isInputRequiredResult,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  isConnectionFailure,
  SdkResult,
  ToolError,
  type AnySdkResult,
  type HandlerContext,
  type Principal,
  type Notify,
} from './handler.gen.js';
import type { AnyToolHandler } from './register.gen.js';
import type { ApprovalHooks, CallGuard, HandleHooks, SearchHooks, TaskHooks, ToolRun } from './hooks.gen.js';
import { answerOf } from './hooks.gen.js';
import type { RegistrySpec, ToolSpec } from './spec.gen.js';
import type { Telemetry } from './startup.gen.js';

/** What every call needs besides its own arguments; `handles`, `approvals`, `guard`, `tasks`: null when unused. */
export interface CallEnv {
  readonly registry: RegistrySpec;
  readonly handles: HandleHooks | null;
  readonly approvals: ApprovalHooks | null;
  readonly guard: CallGuard | null;
  readonly tasks: TaskHooks | null;
  readonly log: (message: string) => void;
  /** What `setup` returned: every handler's `ctx.services`. */
  readonly services: unknown;
  /** telemetry.gen.ts; null without `telemetry`. */
  readonly telemetry: Telemetry | null;
  /** `ctx.notify` (notify.gen.ts), or `silentNotify` when the manifest declares no notifications. */
  readonly notify: Notify;
  /** What start-up read config and keys from. */
  readonly environment: NodeJS.ProcessEnv;
  /** The tools this deployment serves (`<NAME>_TOOLSETS`, `<NAME>_READ_ONLY`), by name. */
  readonly tools: ReadonlySet<string>;
  /** search.gen.ts, with `discovery: search`; else null. */
  readonly search: SearchHooks | null;
}

/** The principal making the request, from the verified auth info; `anonymous` without auth. */
export function principalOf(ctx: ServerContext): Principal {
  const auth = ctx.http?.authInfo;
  return { id: principalIdOf(auth), scopes: auth === undefined ? [] : [...auth.scopes] };
}

/** The principal id of a caller with `auth` (verified by auth.gen.ts), or `anonymous` without auth. */
export function principalIdOf(
  auth: { readonly clientId: string; readonly extra?: Record<string, unknown> } | undefined,
) {
  if (auth === undefined) return 'anonymous';
  return typeof auth.extra?.principal === 'string' ? auth.extra.principal : auth.clientId;
}

/** The `ctx` a handler receives. */
export function handlerContext(
  ctx: ServerContext,
  env: CallEnv,
): HandlerContext<Record<string, { issue(id: string): string }>> {
  const principal = principalOf(ctx);
  // With a state key every echoed state was verified by the SDK hook and is a payload; without one it is the raw
  // string.
  const state = ctx.mcpReq.requestState<unknown>();
  const requestState =
    env.approvals === null ? (typeof state === 'string' ? state : undefined) : env.approvals.handlerState(state);
  const token = ctx.mcpReq._meta?.progressToken;
  // At most one notification per 25 milliseconds, the last (progress = total) always: no loop floods the client.
  let last = -Infinity;
  const progress = async (value: number, total?: number, message?: string): Promise<void> => {
    if (token === undefined || (performance.now() - last < 25 && value !== total)) return;
    last = performance.now();
    const params = {
      progressToken: token,
      progress: value,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message }),
    };
    await ctx.mcpReq.notify({ method: 'notifications/progress', params });
  };
  return {
    principal,
    handles: env.handles?.issuers(principal.id) ?? {},
    signal: ctx.mcpReq.signal,
    log: (message: string) => {
      // On stderr with the request's trace and span ids, so a log line finds its trace.
      env.log(env.telemetry === null ? message : `${message}${env.telemetry.logIds()}`);
      void ctx.mcpReq.log('info', message).catch(() => {});
    },
    progress,
    request: { inputResponses: ctx.mcpReq.inputResponses ?? {}, requestState },
    services: env.services,
    notify: env.notify,
  };
}

/**
 * A handler's `sdkResult`, as-is, but with its own `requestState` sealed when the server has a state key (else `verify`
 * refuses it).
 */
export async function passThrough<R extends AnySdkResult>(
  reply: SdkResult<R>,
  ctx: ServerContext,
  env: CallEnv,
): Promise<R> {
  const result = reply.result;
  if (!isInputRequiredResult(result) || result.requestState === undefined || env.approvals === null) return result;
  return { ...result, requestState: await env.approvals.seal(result.requestState, ctx) };
}

/** A tool error; a retryable one says so to programs in `_meta` (docs/handlers.md, "Errors"). */
const errorResult = (text: string, retryable = false): CallToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
  ...(retryable ? { _meta: { 'mcp-gen/error': { retryable: true } } } : {}),
});

/** An exception as logged on stderr: its stack when it has one. */
export const describe = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

/**
 * `value` with every missing property's JSON Schema `default` filled in, in nested objects too (not through $ref,
 * arrays or combinators).
 */
export function withDefaults(schema: Readonly<Record<string, unknown>>, value: unknown): unknown {
  if (schema.properties === undefined || value === null || typeof value !== 'object' || Array.isArray(value))
    return value;
  const filled: Record<string, unknown> = { ...value };
  const properties = schema.properties as Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  for (const [name, property] of Object.entries(properties)) {
    if (!Object.hasOwn(filled, name) && Object.hasOwn(property, 'default'))
      filled[name] = structuredClone(property.default);
    if (Object.hasOwn(filled, name)) filled[name] = withDefaults(property, filled[name]);
  }
  return filled;
}

/**
 * A handler's settled promise as a tool result: shaped, or its error; null when it threw the abort of its aborted
 * `signal`.
 */
async function outcomeOf(
  tool: ToolSpec,
  pending: Promise<unknown>,
  signal: AbortSignal,
  ctx: ServerContext,
  env: CallEnv,
): Promise<CallToolResult | InputRequiredResult | null> {
  try {
    const output = await pending;
    if (output instanceof SdkResult)
      return await passThrough(output as SdkResult<CallToolResult | InputRequiredResult>, ctx, env);
    if (tool.outputSchema !== null)
      return {
        content: [{ type: 'text', text: JSON.stringify(output) }],
        structuredContent: output as Record<string, unknown>,
      };
    return {
      content:
        typeof output === 'string' ? [{ type: 'text', text: output }] : [...(output as CallToolResult['content'])],
    };
  } catch (error) {
    if (signal.aborted && (error === signal.reason || (error instanceof Error && error.name === 'AbortError')))
      return null;
    if (error instanceof ToolError) return errorResult(error.message, error.retryable);
    env.log(`tool "${tool.name}" failed: ${describe(error)}`);
    // A refused or broken connection (a database restarting) may pass on a retry: programs see that in _meta.
    return errorResult(
      `The tool "${tool.name}" failed. Details were logged on the server.`,
      isConnectionFailure(error),
    );
  }
}

/**
 * Calls a tool handler and shapes its result: structuredContent plus a text copy, or content.
 * Handles are verified before approval is asked: a bad handle is not worth asking the user about.
 */
/** Handler runs not yet returned, answered or not: a Worker waits for them (http-fetch.gen.ts). */
export const running = new Set<Promise<unknown>>();

export async function callTool(
  tool: ToolSpec,
  handler: AnyToolHandler | undefined,
  args: unknown,
  ctx: ServerContext,
  env: CallEnv,
): Promise<CallToolResult | InputRequiredResult> {
  const context = handlerContext(ctx, env);
  let input = withDefaults(tool.inputSchema, args ?? {});
  if (tool.handles.consumes.length > 0) {
    // Fail closed: a tool that consumes handles never runs on a server that cannot verify them.
    const opened = env.handles?.open(tool, input, context.principal.id) ?? { refused: 'this server has no handle key' };
    if ('refused' in opened) return errorResult(`Invalid arguments for tool ${tool.name}: ${opened.refused}`);
    input = opened.input as object;
  }
  if (handler === undefined) return errorResult(`The tool "${tool.name}" has no handler.`);
  // Fail closed: a tool that needs approval or an idempotency key never runs without the store's guard.
  if (env.guard === null && (tool.approval === 'confirm' || tool.idempotency === 'key'))
    return errorResult(
      `The tool "${tool.name}" needs approval or an idempotency key, but the state store is not configured.`,
    );
  const run = (): ToolRun => {
    // One signal per call, aborted by the caller's or by the tool's timeout; the timer and the listener on the
    // caller's signal go once the handler settles. Not `AbortSignal.any` with an abort listener: Node holds that in a
    // process-wide set until it aborts or loses the listener, so each call that ended normally stayed in memory.
    const own = new AbortController();
    const { signal } = own;
    const caller = context.signal;
    const cancel = (): void => own.abort(caller.reason);
    const timer = setTimeout(() => own.abort(), tool.timeoutMs);
    const interruption = new Promise<CallToolResult>((resolve, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        caller.removeEventListener('abort', cancel);
        if (caller.aborted) reject(signal.reason);
        else resolve(errorResult(`The tool "${tool.name}" timed out after ${tool.timeoutMs / 1000} s.`));
      };
      signal.addEventListener('abort', stop, { once: true });
    });
    if (caller.aborted) cancel();
    else caller.addEventListener('abort', cancel, { once: true });
    const call = (): Promise<unknown> =>
      new Promise((resolve) => resolve(handler(input as never, { ...context, signal } as never)));
    // With telemetry the handler's work is a child span of the request's, so its own spans nest under it.
    const attributes = { 'gen_ai.tool.name': tool.name };
    const outcome = outcomeOf(
      tool,
      env.telemetry === null ? call() : env.telemetry.withSpan(`handler ${tool.name}`, attributes, call),
      signal,
      ctx,
      env,
    ).finally(() => {
      clearTimeout(timer);
      caller.removeEventListener('abort', cancel);
      running.delete(outcome);
    });
    running.add(outcome);
    return { outcome, interruption };
  };
  return env.guard === null ? answerOf(run()) : env.guard(tool, args ?? {}, context.principal.id, ctx, run);
}
