/**
 * Tool search, with `discovery: search`: `tools/list` lists `search_tools` and `call_tool` (the registry's
 * `search.surface`, as written) instead of the tools, which stay registered and callable: search changes what is
 * listed, not what is served. `search_tools` ranks the tools this deployment serves (toolsets, read-only mount, a
 * request's `Mcp-Toolsets`) with BM25F over name, title, tags, description, parameters and the fields a tool
 * answers with, verb synonyms and concepts (search-index.gen.ts); the index is built once, at start. `call_tool`
 * runs the named tool through the SDK's own `tools/call` handler of the same server, so unknown and unselected
 * names, validation, approval, idempotency, handles, deadlines and the handler's span are a direct call's, with the
 * real name; its scope challenge is the named tool's.
 */
import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import { lazySchema } from './register.gen.js';
import type { CallEnv } from './call.gen.js';
import type { SearchHooks } from './hooks.gen.js';
import type { RegistrySpec, ToolSpec } from './spec.gen.js';
import { ToolIndex } from './search-index.gen.js';

/** The SDK's `tools/call` handler before its wrapper: lookup, validation, the tool's handler, result shaping. */
type CallHandler = (request: unknown, ctx: ServerContext) => Promise<CallToolResult>;

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** The index of the tools of `registry` this deployment serves (`tools`), with their tags. */
export function toolIndex(registry: RegistrySpec, tools: ReadonlySet<string>): ToolIndex {
  const tags = registry.search?.tags ?? {};
  return new ToolIndex(
    registry.tools
      .filter((t) => tools.has(t.name))
      .map((t) => ({ ...t, tags: Object.hasOwn(tags, t.name) ? (tags[t.name] ?? []) : [] })),
  );
}

/**
 * call_tool's hints over the tools it reaches, by the rule of the registry's surface (src/model/search.ts), which is
 * written for every tool: read-only only when each one is, destructive when any one may be. A read-only mount or a
 * toolset of read-only tools then lists call_tool as read-only, as every tool behind it is.
 */
function reachHints(tools: readonly ToolSpec[]): Record<string, boolean> {
  const hints = tools.map((tool) => tool.listing.annotations);
  const readOnly = hints.every((h) => h.readOnlyHint === true);
  return {
    readOnlyHint: readOnly,
    ...(readOnly ? {} : { destructiveHint: hints.some((h) => h.readOnlyHint !== true && h.destructiveHint !== false) }),
    idempotentHint: hints.every((h) => h.readOnlyHint === true || h.idempotentHint === true),
    openWorldHint: hints.some((h) => h.openWorldHint !== false),
  };
}

/** The search surface of `registry`, over the tools this deployment serves (`tools`), indexed once. */
export function searchHooks(registry: RegistrySpec, tools: ReadonlySet<string>): SearchHooks {
  const search = registry.search ?? { surface: [], tags: {} };
  const byName = new Map(registry.tools.map((tool) => [tool.name, tool]));
  const index = toolIndex(registry, tools);
  const surface = new Set(search.surface.map((tool) => tool.name));
  // A found tool as tools/list would send it, without the icons and output schema a model does not read to choose.
  const descriptor = ({ name, listing: { icons: _icons, ...listing }, inputSchema }: ToolSpec) => ({
    name,
    ...listing,
    inputSchema,
  });

  return {
    attach(server: McpServer, served: (name: string) => boolean, env: CallEnv): void {
      const sdk = server.server as unknown as {
        _requestHandlers: Map<string, unknown>;
        setRequestHandler(method: string, ...rest: unknown[]): void;
        _getRequestHandler(method: string): ((request: unknown, ctx: ServerContext) => Promise<unknown>) | undefined;
      };
      const mcp = server as unknown as { _toolHandlersInitialized: boolean; setToolRequestHandlers(): void };
      // McpServer installs its tools/call handler when it is built, and the Server keeps it wrapped. Installed once
      // more here, it is kept as given too: lookup, validation, the tool's handler and result shaping, nothing else.
      let call: CallHandler | undefined;
      const install = sdk.setRequestHandler;
      sdk._requestHandlers.delete('tools/call');
      sdk._requestHandlers.delete('tools/list');
      mcp._toolHandlersInitialized = false;
      sdk.setRequestHandler = function (this: unknown, method: string, ...rest: unknown[]) {
        if (method === 'tools/call') call = rest[0] as CallHandler;
        return (install as (...args: unknown[]) => void).call(this, method, ...rest);
      };
      try {
        mcp.setToolRequestHandlers();
      } finally {
        delete (sdk as { setRequestHandler?: unknown }).setRequestHandler;
      }
      if (call === undefined) throw new Error('search: the SDK installed no tools/call handler');
      for (const tool of search.surface) {
        const { name, title, description, inputSchema, outputSchema, annotations } = tool;
        const run =
          name === 'search_tools'
            ? // Without a limit, 5: the schema's default.
              async ({ query, limit }: { query: string; limit?: number }) => {
                const found = index.search(query, limit ?? 5, served).flatMap((n) => {
                  const spec = byName.get(n);
                  return spec === undefined ? [] : [descriptor(spec)];
                });
                return {
                  content: [{ type: 'text' as const, text: JSON.stringify({ tools: found }) }],
                  structuredContent: { tools: found },
                };
              }
            : async (args: { name: string; arguments?: Record<string, unknown> }, ctx: ServerContext) => {
                if (surface.has(args.name))
                  return toolError(`call_tool calls the server's tools, not ${args.name}; call it directly.`);
                if (byName.get(args.name)?.task === 'required' && served(args.name))
                  return toolError(`The tool "${args.name}" runs only as a task: call it with tools/call.`);
                const request = { method: 'tools/call', params: { name: args.name, arguments: args.arguments ?? {} } };
                const dispatch = () => (call as CallHandler)(request, ctx);
                const attributes = { 'gen_ai.tool.name': args.name, 'gen_ai.operation.name': 'execute_tool' };
                return env.telemetry === null
                  ? dispatch()
                  : env.telemetry.withSpan(`tools/call ${args.name}`, attributes, dispatch);
              };
        server.registerTool(
          name,
          {
            title,
            description,
            inputSchema: lazySchema(inputSchema),
            ...(outputSchema === undefined ? {} : { outputSchema: lazySchema(outputSchema) }),
            // The request's selection: the registry's hints are those of every tool (what verify compares).
            annotations:
              name === 'call_tool' ? reachHints(registry.tools.filter((t) => served(t.name))) : { ...annotations },
            // call_tool asks for the named tool's scopes (HTTP 403 insufficient_scope), as a direct call would.
            ...(name === 'call_tool'
              ? {
                  scopeChallenge: (context: { request: { params?: { arguments?: { name?: unknown } } } }) => {
                    const target = context.request.params?.arguments?.name;
                    if (typeof target !== 'string' || surface.has(target)) return undefined;
                    const request = { ...context.request, method: 'tools/call', params: { name: target } };
                    return server.resolveScopeChallenge({ ...context, request } as never);
                  },
                }
              : {}),
          } as never,
          run as never,
        );
      }
      // tools/list: only the surface; the tools registered after it stay callable.
      const list = sdk._getRequestHandler('tools/list');
      if (list !== undefined)
        sdk.setRequestHandler('tools/list', async (request: unknown, ctx: ServerContext) => {
          const result = (await list(request, ctx)) as { tools: { name: string }[] };
          return { ...result, tools: result.tools.filter((tool) => surface.has(tool.name)) };
        });
    },
  };
}
