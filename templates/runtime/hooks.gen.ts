/**
 * What optional modules plug into a tool call (call.gen.ts): the hooks of search, tasks, handles and approvals, the
 * guard of the state store, and one handler run. Types and one helper only, so every module can name them.
 */
import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
  Transport,
} from '@modelcontextprotocol/server';
import type { CallEnv } from './call.gen.js';
import type { ToolSpec } from './spec.gen.js';

/** What search.gen.ts adds to a server: search_tools and call_tool, listed instead of the tools. */
export interface SearchHooks {
  attach(server: McpServer, served: (tool: string) => boolean, env: CallEnv): void;
}

/** What tasks.gen.ts adds to a server: `tools/call` as a task, and the `tasks/*` methods. */
export interface TaskHooks {
  attach(server: McpServer, served: (tool: string) => boolean): void;
  /** HTTP: the answer to a listen `body` asking for `taskIds`, around `forward` (the SDK's); else null. */
  listen(
    body: unknown,
    principal: string,
    signal: AbortSignal,
    forward: (body: unknown) => Promise<Response>,
  ): Promise<Response> | null;
  /** stdio: the connection's transport, with task notifications on its listen subscriptions. */
  stdio(transport: Transport): Transport;
  /** Resolves once no task runs here (a Worker waits for it). */
  settled(): Promise<void>;
}

/** What handles.gen.ts adds to a call. */
export interface HandleHooks {
  /** `ctx.handles`: an issuer per handle kind, minting handles bound to `principal`. */
  issuers(principal: string): Record<string, { issue(id: string): string }>;
  /** The tool's arguments with every handle verified and opened, or why one is refused. */
  open(tool: ToolSpec, args: unknown, principal: string): { readonly input: unknown } | { readonly refused: string };
}

/**
 * Runs a tool that needs approval or an idempotency key, through the state store (store.gen.ts); `run` starts the
 * handler.
 */
export type CallGuard = (
  tool: ToolSpec,
  args: unknown,
  principal: string,
  ctx: ServerContext,
  run: () => ToolRun,
) => Promise<CallToolResult | InputRequiredResult>;

/**
 * One handler run; the handler is never dropped when its caller goes. `outcome`: its result once it settles, null when
 * it threw
 * the abort of its aborted signal (it stopped). `interruption` settles only if the caller stops first: rejects on a
 * cancel or disconnect, resolves at the timeout.
 */
export type ToolRun = {
  readonly outcome: Promise<CallToolResult | InputRequiredResult | null>;
  readonly interruption: Promise<CallToolResult>;
};

/** What the caller gets: the handler's result, or the interruption when it comes first. */
export const answerOf = (run: ToolRun): Promise<CallToolResult | InputRequiredResult> =>
  Promise.race([run.outcome.then((outcome) => outcome ?? run.interruption), run.interruption]);

/**
 * What approval.gen.ts adds: `approval: confirm` (through the guard), and the HMAC seal of every echoed `requestState`.
 */
export interface ApprovalHooks {
  /** `ServerOptions.requestState.verify`: throws on a forged, expired or foreign state. */
  readonly verify: (state: string, ctx: ServerContext) => Promise<unknown>;
  /** The handler's own state string from a verified payload; undefined for an approval state. */
  handlerState(payload: unknown): string | undefined;
  /** Seals a handler's own `requestState` so that `verify` accepts it on the retry. */
  seal(state: string, ctx: ServerContext): Promise<string>;
}
