/**
 * Builds an McpServer from the registry and the handlers, and runs one tool call: context, defaults, shaped result,
 * internals
 * kept out of errors (stacks go to stderr only). Handles and approvals join through hooks (handles.gen.ts,
 * approval.gen.ts).
 */
import {
  isInputRequiredResult,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  fromJsonSchema,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
  type StandardSchemaWithJSON,
  type Transport,
} from '@modelcontextprotocol/server';
import {
  isConnectionFailure,
  SdkResult,
  StartupError,
  ToolError,
  type AnySdkResult,
  type HandlerContext,
  type Principal,
  type PromptReply,
  type ResourceReply,
  type Notify,
} from './handler.gen.js';
import type { PagesSpec, RegistrySpec, ToolSpec } from './spec.gen.js';
import type { ServerDefinition, Telemetry } from './start.gen.js';

/** A handler of any tool, resource or prompt; the generated handler types are the precise ones. */
export type AnyToolHandler = (input: never, ctx: HandlerContext<never, never>) => Promise<unknown>;
export type AnyResourceHandler = (
  uri: URL,
  variables: never,
  ctx: HandlerContext<never, never>,
) => Promise<ResourceReply>;
export type AnyPromptHandler = (args: never, ctx: HandlerContext<never, never>) => Promise<PromptReply>;

/** The user's handlers, by manifest name. Prompts with fixed messages have none. */
export interface HandlerSet {
  readonly tools: Readonly<Record<string, AnyToolHandler>>;
  readonly resources: Readonly<Record<string, AnyResourceHandler>>;
  readonly prompts: Readonly<Record<string, AnyPromptHandler>>;
  /** List and completion handlers by name, typed precisely in dynamic.gen.ts, which alone calls them. */
  readonly resourceLists?: Readonly<Record<string, AnyToolHandler>>;
  readonly resourceCompletions?: Readonly<Record<string, AnyToolHandler>>;
  readonly promptCompletions?: Readonly<Record<string, AnyToolHandler>>;
}

/** Registers one kind of primitive besides tools (resources.gen.ts, prompts.gen.ts). */
export type Registrar = (server: McpServer, handlers: HandlerSet, env: CallEnv) => void;

/** Loads a handler's module on its first call: listing loads no handler code; a failed load fails only its calls. */
export function lazyHandler<M, F extends (...args: never[]) => Promise<unknown>>(
  load: () => Promise<M>,
  pick: (module: M) => F,
): F {
  let handler: Promise<F> | undefined;
  const call = (...args: Parameters<F>): Promise<unknown> => {
    handler ??= load().then(pick);
    return handler.then((loaded) => loaded(...args));
  };
  return call as unknown as F;
}

/** The input and output schema of every tool, by name, wrapped for the SDK exactly once. */
export type CompiledSchemas = ReadonlyMap<
  string,
  { readonly input: StandardSchemaWithJSON; readonly output?: StandardSchemaWithJSON }
>;

/**
 * Validators compiled to code at generate time (validators.gen.ts), by tool: the verdicts `fromJsonSchema` would give.
 */
export type PrecompiledValidators = Readonly<
  Record<string, Partial<Record<'input' | 'output', StandardSchemaWithJSON['~standard']['validate']>>>
>;

/**
 * A tool schema checked by its precompiled validator, or else compiled on first use, once per process: `tools/list`
 * needs only the JSON.
 */
export function lazySchema(
  json: Readonly<Record<string, unknown>>,
  precompiled?: StandardSchemaWithJSON['~standard']['validate'],
): StandardSchemaWithJSON {
  let compiled: StandardSchemaWithJSON | undefined;
  const validate =
    precompiled ??
    ((value: unknown) => {
      compiled ??= fromJsonSchema(json as Record<string, unknown>) as StandardSchemaWithJSON;
      return compiled['~standard'].validate(value);
    });
  return {
    '~standard': { version: 1, vendor: 'mcp-gen', validate, jsonSchema: { input: () => json, output: () => json } },
  } as StandardSchemaWithJSON;
}

/**
 * Wraps every tool schema for the SDK. Call once, at module scope: the HTTP entry builds a server per request. The
 * tools in `bound` check their answer themselves (upstream.gen.ts), so the SDK's check of their output passes.
 */
export function compileSchemas(
  registry: RegistrySpec,
  precompiled: PrecompiledValidators = {},
  bound: readonly string[] = [],
): CompiledSchemas {
  const output = (tool: ToolSpec, json: Readonly<Record<string, unknown>>) => {
    const schema = lazySchema(json, precompiled[tool.name]?.output);
    if (!bound.includes(tool.name)) return schema;
    return { '~standard': { ...schema['~standard'], validate: (value: unknown) => ({ value }) } } as typeof schema;
  };
  return new Map(
    registry.tools.map((tool) => [
      tool.name,
      {
        input: lazySchema(tool.inputSchema, precompiled[tool.name]?.input),
        ...(tool.outputSchema === null ? {} : { output: output(tool, tool.outputSchema) }),
      },
    ]),
  );
}

/** The names of a comma list (`<NAME>_TOOLSETS`, the `Mcp-Toolsets` header), without blanks. */
export const toolsetNames = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

/**
 * The tools this deployment serves: those of the toolsets `<NAME>_TOOLSETS` names (or `all`; unset: the default ones),
 * only the read-only ones with `<NAME>_READ_ONLY=1`. A toolset the server does not have stops start-up.
 */
export function selectTools(registry: RegistrySpec, environment: NodeJS.ProcessEnv): Set<string> {
  const { toolsetsEnv, readOnlyEnv, toolsets } = registry.selection;
  const given = toolsetNames(environment[toolsetsEnv] ?? '');
  const known = ['all', ...toolsets.map((t) => t.name)];
  const unknown = given.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new StartupError(
      `${toolsetsEnv} names no toolset of this server: ${unknown.join(', ')} (${known.join(', ')})`,
    );
  const readOnly = environment[readOnlyEnv] ?? '';
  if (!['', '0', '1'].includes(readOnly)) throw new StartupError(`${readOnlyEnv} must be 1 or 0, got "${readOnly}"`);
  const chosen = toolsIn(registry, given.length > 0 ? given : toolsets.filter((t) => t.default).map((t) => t.name));
  for (const tool of registry.tools)
    if (readOnly === '1' && tool.listing.annotations.readOnlyHint !== true) chosen.delete(tool.name);
  return chosen;
}

/** The tools of the named toolsets (`all`: every one) and every tool in none. */
export function toolsIn(registry: RegistrySpec, toolsets: readonly string[]): Set<string> {
  const all = toolsets.includes('all');
  const chosen = registry.tools.filter(
    (t) => t.toolsets.length === 0 || all || t.toolsets.some((n) => toolsets.includes(n)),
  );
  return new Set(chosen.map((t) => t.name));
}

/**
 * A fresh McpServer with every primitive, in registry order; with `onlyTool`, only that tool (capabilities stay
 * complete). Only the deployment's tools (`env.tools`), and of those only the request's (`narrow`), exist: any other
 * is unknown.
 */
/** Whether `held` scopes admit a call of `tool`: every scope of its own and, with `auth.grants`, one of its class. */
export const admitted = (tool: ToolSpec, held: readonly string[]): boolean =>
  tool.scopes.every((s) => held.includes(s)) && (tool.grantedBy?.some((s) => held.includes(s)) ?? true);

/** The server of each approval's call: a 2025-11-25 client declares its capabilities in `initialize` only. */
export const serverOf = new WeakMap<ServerContext, McpServer>();

export function buildServer(
  definition: ServerDefinition,
  env: CallEnv,
  registrars: readonly Registrar[],
  onlyTool?: string,
  narrow?: ReadonlySet<string>,
): McpServer {
  const served = (name: string) => env.tools.has(name) && (narrow === undefined || narrow.has(name));
  // A tool outside the selection gets the whole selection, so the SDK answers it as any unknown tool.
  const only = onlyTool !== undefined && served(onlyTool) ? onlyTool : undefined;
  const { registry, schemas, handlers } = definition;
  // Identity, capabilities, instructions and cache come from the discovery contract DESIGN.md prints.
  const { discover } = registry;
  const cache = { ttlMs: discover.ttlMs, cacheScope: discover.cacheScope };
  const capabilities = Object.fromEntries(
    Object.entries(discover.capabilities).map(([kind, value]) => [kind, { ...value }]),
  );
  const server = new McpServer(
    { ...discover._meta['io.modelcontextprotocol/serverInfo'] },
    {
      capabilities,
      ...(discover.instructions === undefined ? {} : { instructions: discover.instructions }),
      cacheHints: {
        'server/discover': cache,
        'tools/list': cache,
        'prompts/list': cache,
        'resources/list': cache,
        'resources/templates/list': cache,
      },
      // Every echoed requestState is verified (HMAC, expiry, principal) before any handler runs; a bad one is -32602.
      ...(env.approvals === null ? {} : { requestState: { verify: env.approvals.verify } }),
    },
  );

  // Before the tools: search_tools and call_tool are listed instead of them, and call_tool reaches them.
  if (only === undefined) env.search?.attach(server, served, env);
  for (const tool of registry.tools) {
    if ((only !== undefined && tool.name !== only) || !served(tool.name)) continue;
    const handler = handlers.tools[tool.name];
    const schema = schemas.get(tool.name);
    const metadata = {
      ...tool.listing,
      inputSchema: schema?.input,
      ...(schema?.output === undefined ? {} : { outputSchema: schema.output }),
      // On HTTP a call the token's scopes do not admit gets 403 insufficient_scope naming the scopes that would;
      // without auth info (stdio) nothing is asked, as with the SDK's requireScopes.
      ...(tool.scopes.length === 0 && tool.grantedBy === undefined
        ? {}
        : {
            scopeChallenge: ({ authInfo }: { authInfo?: { scopes: string[] } }) =>
              authInfo === undefined || admitted(tool, authInfo.scopes)
                ? undefined
                : { scopes: [...tool.scopes, ...(tool.grantedBy?.slice(0, 1) ?? [])] as [string, ...string[]] },
          }),
    };
    server.registerTool(tool.name, metadata, (args: unknown, ctx: ServerContext) => {
      if (tool.approval === 'confirm') serverOf.set(ctx, server);
      return callTool(tool, handler, args, ctx, env);
    });
  }
  // legacy: serve lists 2025-11-25 too (src/emit/registry/discover.ts says why); the SDK lists modern revisions only.
  if (registry.protocol.legacy === 'serve') {
    const sdk = server.server as unknown as { _ondiscover(): object };
    const modern = sdk._ondiscover.bind(sdk);
    sdk._ondiscover = () => ({ ...modern(), supportedVersions: [...discover.supportedVersions] });
  }
  if (only === undefined) for (const register of registrars) register(server, handlers, env);
  env.tasks?.attach(server, served);
  // Resources with a list handler are paged by dynamic.gen.ts, which continues after the fixed ones.
  pageLists(
    server,
    registry.pages,
    registry.resources.some((r) => r.list === true),
  );
  return server;
}

/** Each paginated list method and the key of its items in the result, which is also its list in `PagesSpec`. */
const listMethods = [
  ['tools/list', 'tools'],
  ['prompts/list', 'prompts'],
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resourceTemplates'],
] as const;

type ListHandler = (
  request: { readonly params?: { readonly cursor?: string } },
  ctx: ServerContext,
) => Promise<Record<string, unknown>>;

/**
 * Serves every list the server declares in pages: the SDK still builds the whole list (in registry order, so the
 * generator's cursors match), and one page of it is sent, with `nextCursor` unless it is the last. A cursor that is
 * not one of the list's own (edited, or from another build) is -32602. The handler is re-registered through
 * `setRequestHandler`, so cache hints and the era's result encoding apply to each page as to the whole list.
 */
function pageLists(server: McpServer, pages: PagesSpec, listed: boolean): void {
  // The SDK's handler chain for a method: the protected accessor its role classes use for the same purpose.
  const sdk = server.server as unknown as { _getRequestHandler(method: string): ListHandler | undefined };
  const set = server.server.setRequestHandler.bind(server.server) as (method: string, handler: ListHandler) => void;
  for (const [method, list] of listMethods) {
    const whole = sdk._getRequestHandler(method);
    if (whole === undefined || (listed && list === 'resources')) continue;
    const cursors = pages.cursors[list];
    set(method, async (request, ctx) => {
      const cursor = request.params?.cursor;
      const page = cursor === undefined ? 0 : cursors.indexOf(cursor) + 1;
      if (page === 0 && cursor !== undefined)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor for ${method}`, { cursor });
      const result = await whole(request, ctx);
      const items = (result[list] ?? []) as readonly unknown[];
      // Tool pages cut by bytes (toolStarts) end where the next one starts.
      const starts = list === 'tools' ? pages.toolStarts : undefined;
      const start = starts === undefined ? page * pages.size : (starts[page] ?? items.length);
      const end = starts === undefined ? start + pages.size : (starts[page + 1] ?? items.length);
      // A selection lists fewer tools than the registry's cursors were cut for: the last page may come earlier.
      const next = page < cursors.length && end < items.length ? { nextCursor: cursors[page] } : {};
      return { ...result, [list]: items.slice(start, end), ...next };
    });
  }
}

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
    });
    return { outcome, interruption };
  };
  return env.guard === null ? answerOf(run()) : env.guard(tool, args ?? {}, context.principal.id, ctx, run);
}
