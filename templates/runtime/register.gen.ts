/**
 * Builds an McpServer from the registry and the user's handlers. Schemas are
 * compiled once (compileSchemas, called at module scope by server.gen.ts):
 * the HTTP entry calls the server factory on every request, and compiling a
 * JSON Schema per request costs several times the throughput.
 */
import { McpServer, ResourceTemplate, completable, fromJsonSchema, requireScopes, type ServerContext, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { callPrompt, callResource, callTool, type CallEnv } from './invoke.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import type { HandlerContext, PromptReply, ResourceReply } from './context.gen.js';

/** A tool handler of any tool; the generated `ToolHandlers` type is the precise one. */
export type AnyToolHandler = (input: never, ctx: HandlerContext<never>) => Promise<unknown>;
/** A resource handler of any resource. */
export type AnyResourceHandler = (uri: URL, variables: never, ctx: HandlerContext<never>) => Promise<ResourceReply>;
/** A prompt handler of any prompt. */
export type AnyPromptHandler = (args: never, ctx: HandlerContext<never>) => Promise<PromptReply>;

/** The user's handlers, by manifest name. Prompts with fixed messages have none. */
export interface HandlerSet {
  readonly tools: Readonly<Record<string, AnyToolHandler>>;
  readonly resources: Readonly<Record<string, AnyResourceHandler>>;
  readonly prompts: Readonly<Record<string, AnyPromptHandler>>;
}

/**
 * A handler that loads its module on its first call. server.gen.ts wraps every
 * handler in one, so a server starts, answers discovery and lists what it
 * offers without loading any handler code, or anything that code imports (a
 * stdio server is started for every session; most sessions call few tools).
 * A module that fails to load fails only the calls that need it; the error is
 * logged to stderr like any other handler failure.
 */
export function lazyHandler<M, F extends (...args: never[]) => Promise<unknown>>(load: () => Promise<M>, pick: (module: M) => F): F {
  let handler: Promise<F> | undefined;
  const call = (...args: Parameters<F>): Promise<unknown> => (handler ??= load().then(pick)).then((loaded) => loaded(...args));
  return call as unknown as F;
}

/** Every schema of the registry, wrapped for the SDK exactly once. */
export interface CompiledSchemas {
  readonly toolInput: ReadonlyMap<string, StandardSchemaWithJSON>;
  readonly toolOutput: ReadonlyMap<string, StandardSchemaWithJSON>;
  readonly promptArgs: ReadonlyMap<string, StandardSchemaWithJSON>;
}

/** The declared values that start with what the user typed; the SDK caps the answer at 100 and sets `total` / `hasMore`. */
export function completeFrom(values: readonly string[]): (typed: string) => string[] {
  return (typed) => values.filter((value) => value.startsWith(typed ?? ''));
}

/**
 * The SDK finds prompt-argument completers on `argsSchema.shape[name]` (the shape of a Zod object);
 * a JSON Schema wrapper has none, so one is attached holding a `completable` string schema per
 * argument with declared values. The SDK registers `completion/complete` when it sees one.
 */
function withCompleters(schema: StandardSchemaWithJSON, args: RegistrySpec['prompts'][number]['arguments']): StandardSchemaWithJSON {
  const shape: Record<string, unknown> = {};
  for (const arg of args) {
    if (arg.completions !== undefined) shape[arg.name] = completable(fromJsonSchema<string>({ type: 'string' }), completeFrom(arg.completions));
  }
  return Object.keys(shape).length === 0 ? schema : Object.assign(schema, { shape });
}

/**
 * A tool schema for the SDK that compiles its validator on first use. Listing
 * needs only the JSON Schema as written (`fromJsonSchema` lists it verbatim
 * too), so a process that starts, answers `tools/list` and exits never pays for
 * compiling validators; each is compiled once per process, never per request.
 */
export function lazySchema(json: Record<string, unknown>): StandardSchemaWithJSON {
  let compiled: StandardSchemaWithJSON | undefined;
  const real = (): StandardSchemaWithJSON => (compiled ??= fromJsonSchema(json) as StandardSchemaWithJSON);
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-gen',
      validate: (value: unknown) => real()['~standard'].validate(value),
      jsonSchema: { input: () => json, output: () => json },
    },
  } as StandardSchemaWithJSON;
}

/** Wraps every JSON Schema of `registry` for the SDK; call once, at module scope. */
export function compileSchemas(registry: RegistrySpec): CompiledSchemas {
  const toolInput = new Map<string, StandardSchemaWithJSON>();
  const toolOutput = new Map<string, StandardSchemaWithJSON>();
  const promptArgs = new Map<string, StandardSchemaWithJSON>();
  for (const tool of registry.tools) {
    toolInput.set(tool.name, lazySchema(tool.inputSchema as Record<string, unknown>));
    if (tool.outputSchema !== null) toolOutput.set(tool.name, lazySchema(tool.outputSchema as Record<string, unknown>));
  }
  for (const prompt of registry.prompts) {
    const properties: Record<string, unknown> = {};
    for (const arg of prompt.arguments) {
      properties[arg.name] = arg.description === null ? { type: 'string' } : { type: 'string', description: arg.description };
    }
    const required = prompt.arguments.filter((a) => a.required).map((a) => a.name);
    const schema = fromJsonSchema({ type: 'object', properties, required } as Record<string, unknown>) as StandardSchemaWithJSON;
    promptArgs.set(prompt.name, withCompleters(schema, prompt.arguments));
  }
  return { toolInput, toolOutput, promptArgs };
}

/**
 * A fresh McpServer with every primitive registered in registry (sorted)
 * order; with `onlyTool`, a server for one call of that tool, which registers
 * nothing else (capabilities are declared in full either way).
 */
export function buildServer(registry: RegistrySpec, schemas: CompiledSchemas, handlers: HandlerSet, env: CallEnv, onlyTool?: string): McpServer {
  // Identity, capabilities, instructions and cache come from the discovery contract in the
  // registry: the same data DESIGN.md prints.
  const { discover } = registry;
  const cache = { ttlMs: discover.ttlMs, cacheScope: discover.cacheScope };
  const capabilities = Object.fromEntries(Object.entries(discover.capabilities).map(([kind, value]) => [kind, { ...value }]));
  const server = new McpServer({ ...discover._meta['io.modelcontextprotocol/serverInfo'] }, {
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
  });

  for (const tool of registry.tools) {
    if (onlyTool !== undefined && tool.name !== onlyTool) continue;
    const handler = handlers.tools[tool.name];
    const outputSchema = schemas.toolOutput.get(tool.name);
    server.registerTool(
      tool.name,
      {
        ...(tool.title === null ? {} : { title: tool.title }),
        description: tool.description,
        inputSchema: schemas.toolInput.get(tool.name),
        ...(outputSchema === undefined ? {} : { outputSchema }),
        annotations: { ...tool.annotations },
        // On HTTP the SDK answers a call without every scope with 403 insufficient_scope before the
        // handler; without auth info (stdio, auth: none) requireScopes lets the call through.
        ...(tool.scopes.length === 0 ? {} : { scopeChallenge: requireScopes(...(tool.scopes as [string, ...string[]])) }),
      },
      (args: unknown, ctx: ServerContext) => callTool(tool, handler, args, ctx, env),
    );
  }

  if (onlyTool !== undefined) return server;

  for (const resource of registry.resources) {
    const handler = handlers.resources[resource.name];
    const metadata = {
      ...(resource.title === null ? {} : { title: resource.title }),
      ...(resource.description === null ? {} : { description: resource.description }),
      ...(resource.mimeType === null ? {} : { mimeType: resource.mimeType }),
      cacheHint: { ttlMs: resource.cache.ttlMs, cacheScope: resource.cache.scope },
    };
    if (resource.uri !== null) {
      server.registerResource(resource.name, resource.uri, metadata, (uri: URL, ctx: ServerContext) => callResource(resource, handler, uri, {}, ctx, env));
    } else {
      const complete = Object.fromEntries(Object.entries(resource.completions ?? {}).map(([variable, values]) => [variable, completeFrom(values)]));
      const template = new ResourceTemplate(resource.uriTemplate ?? '', { list: undefined, complete });
      server.registerResource(resource.name, template, metadata, (uri: URL, variables: Record<string, string | string[]>, ctx: ServerContext) =>
        callResource(resource, handler, uri, variables, ctx, env),
      );
    }
  }

  for (const prompt of registry.prompts) {
    const handler = handlers.prompts[prompt.name];
    server.registerPrompt(
      prompt.name,
      {
        ...(prompt.title === null ? {} : { title: prompt.title }),
        ...(prompt.description === null ? {} : { description: prompt.description }),
        argsSchema: schemas.promptArgs.get(prompt.name) as StandardSchemaWithJSON,
      },
      (args: unknown, ctx: ServerContext) => callPrompt(prompt, handler, args as Record<string, string | undefined>, ctx, env),
    );
  }
  return server;
}
