/**
 * Builds an McpServer from the registry and the handlers: the tools this deployment serves (selection by toolsets,
 * read-only mounts, scopes), their compiled schemas and lazy handlers, and the list pages. A tool call is
 * call.gen.ts's.
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  fromJsonSchema,
  type ServerContext,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { StartupError, type HandlerContext, type PromptReply, type ResourceReply } from './handler.gen.js';
import type { PagesSpec, RegistrySpec, ToolSpec } from './spec.gen.js';
import { type CallEnv, callTool } from './call.gen.js';
import type { ServerDefinition } from './start.gen.js';
import { checkParams } from './params.gen.js';

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
  const fits = (t: ToolSpec) => t.toolsets.length === 0 || all || t.toolsets.some((n) => toolsets.includes(n));
  return new Set(registry.tools.filter(fits).map((t) => t.name));
}

/** Whether `held` scopes admit a call of `tool`: every scope of its own and, with `auth.grants`, one of its class. */
export const admitted = (tool: ToolSpec, held: readonly string[]): boolean =>
  tool.scopes.every((s) => held.includes(s)) && (tool.grantedBy?.some((s) => held.includes(s)) ?? true);

/** The server of each approval's call: a 2025-11-25 client declares its capabilities in `initialize` only. */
export const serverOf = new WeakMap<ServerContext, McpServer>();

/**
 * A fresh McpServer with every primitive, in registry order; with `onlyTool`, only that tool (capabilities stay
 * complete). Only the deployment's tools (`env.tools`), and of those only the request's (`narrow`), exist: any other
 * is unknown.
 */
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
  // The SDK finds tools and prompts by name in plain objects, where "constructor" is Object's (sdk-seams.test.ts).
  Object.assign(server, { _registeredTools: Object.create(null), _registeredPrompts: Object.create(null) });

  checkParams(server);
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
  const listed = registry.resources.some((r) => r.list === true);
  pageLists(server, registry.pages, listed, registry.tools.length);
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
function pageLists(server: McpServer, pages: PagesSpec, listed: boolean, tools: number): void {
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
      // Tool pages cut by bytes (toolStarts) end where the next one starts. A selection (toolsets, read-only mount,
      // search) is cut by the same rule here: the whole list's cuts would put other tools on a page, past 1 MiB.
      const starts =
        list !== 'tools' ? undefined : items.length === tools ? pages.toolStarts : toolStarts(items, pages.size);
      const start = starts === undefined ? page * pages.size : (starts[page] ?? items.length);
      const end = starts === undefined ? start + pages.size : (starts[page + 1] ?? items.length);
      // A selection lists fewer tools than the registry's cursors were cut for: the last page may come earlier.
      const next = page < cursors.length && end < items.length ? { nextCursor: cursors[page] } : {};
      return { ...result, [list]: items.slice(start, end), ...next };
    });
  }
}

/** Where each page of `items` starts, cut as src/review/tokens.ts pageStarts cuts the whole list (at most as many). */
function toolStarts(items: readonly unknown[], size: number): number[] {
  const utf8 = new TextEncoder();
  const starts = [0];
  let [count, bytes] = [0, 12];
  items.forEach((item, i) => {
    const own = utf8.encode(JSON.stringify(item)).length;
    if (count > 0 && (count === size || bytes + 1 + own > 1024 * 1024)) {
      starts.push(i);
      [count, bytes] = [0, 12];
    }
    bytes += own + (count > 0 ? 1 : 0);
    count += 1;
  });
  return starts;
}
