/**
 * What every server loads to start and answer: the process entry, building the
 * McpServer from the registry, handler calls, and stdio. Joined by mcp-gen from
 * templates/runtime/{start,register,invoke,stdio}.gen.ts into one module,
 * because each module a stdio server loads delays its first answer.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { type CallToolResult, type GetPromptResult, type InputRequiredResult, type JSONRPCMessage, type McpRequestContext, McpServer, type McpServerFactory, ProtocolError, ProtocolErrorCode, type ReadResourceResult, ResourceNotFoundError as SdkResourceNotFoundError, ResourceTemplate, type ServerContext, type StandardSchemaWithJSON, type Transport, type TransportSendOptions, completable, fromJsonSchema, isInputRequiredResult, requireScopes } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Approvals } from './approval.gen.js';
import type { HttpAuth, JwtVerifierFactory } from './auth.gen.js';
import type { HandlerContext, Principal, PromptMessageReply, PromptReply, ResourceContent, ResourceReply } from './context.gen.js';
import { HandleError, ResourceNotFoundError, StartupError, ToolError } from './errors.gen.js';
import type { HandleCodec } from './handles.gen.js';
import { type AnySdkResult, SdkResult } from './results.gen.js';
import type { PromptSpec, RegistrySpec, ResourceSpec, ToolSpec } from './spec.gen.js';

// ---- start.gen.ts ----

/**
 * Process entry: reads the command line, loads keys, and starts the chosen
 * transport. `src/main.ts` calls `startServer` and nothing else.
 */

const loopback = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

/** Everything server.gen.ts knows about this server. */
export interface ServerDefinition {
  readonly registry: RegistrySpec;
  readonly schemas: CompiledSchemas;
  readonly handlers: HandlerSet;
}

/** Writes one diagnostic line to stderr: stdout belongs to the protocol on stdio. */
export function logToStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** A factory that builds a fresh McpServer per request (HTTP) or connection (stdio). */
export function createFactory(definition: ServerDefinition, env: CallEnv): McpServerFactory {
  return (ctx) => buildServer(definition.registry, definition.schemas, definition.handlers, env, calledTool(definition.registry, ctx));
}

/**
 * The tool a modern HTTP `tools/call` request names, or undefined for any
 * other request. The SDK checks the Mcp-Method and Mcp-Name headers against
 * the body before it calls the factory, so the server built for that request
 * needs only that tool: registering each further tool costs about 8 µs on
 * every request. A name that is not plainly one of ours (absent, encoded,
 * unknown) gets every tool, so the SDK answers exactly as it would otherwise.
 */
export function calledTool(registry: RegistrySpec, ctx: McpRequestContext | undefined): string | undefined {
  const headers = ctx?.era === 'modern' ? ctx.requestInfo?.headers : undefined;
  if (headers === undefined || headers.get('mcp-method')?.trim() !== 'tools/call') return undefined;
  const name = headers.get('mcp-name')?.trim();
  return registry.tools.some((tool) => tool.name === name) ? name : undefined;
}

/**
 * The HTTP authorization the manifest asks for, or null for `auth: none`.
 * oauth.gen.ts (and with it jose) is imported only here and only for OAuth:
 * other projects do not contain that file, so the specifier is a variable the
 * type checker does not resolve, and the module's type is declared in auth.gen.ts.
 */
async function httpAuth(registry: RegistrySpec, path: string, environment: NodeJS.ProcessEnv): Promise<HttpAuth | null> {
  const { auth } = registry;
  const { createHttpAuth, parseBearerTokens, staticTokenVerifier } = await import('./auth.gen.js');
  const scopes = auth.scopes.map((scope) => scope.name);
  if (auth.type === 'none') return null;
  if (auth.type === 'bearer') {
    const verifier = staticTokenVerifier(parseBearerTokens(environment[auth.tokensEnv], auth.tokensEnv));
    return createHttpAuth(verifier, { path, resource: auth.resource, authorizationServers: [], scopes }, logToStderr);
  }
  const specifier = './oauth.gen.js';
  const { createJwtVerifier } = (await import(specifier)) as { createJwtVerifier: JwtVerifierFactory };
  const verifier = createJwtVerifier({ issuer: auth.issuer, jwksUri: auth.jwksUri, resource: auth.resource }, logToStderr);
  return createHttpAuth(verifier, { path, resource: auth.resource, authorizationServers: [auth.issuer], scopes }, logToStderr);
}

/** The command-line options a server understands. */
export interface StartOptions {
  readonly transport?: string;
  readonly host?: string;
  readonly port?: string;
}

const optionNames: readonly (keyof StartOptions)[] = ['transport', 'host', 'port'];

/**
 * Reads `--name value` and `--name=value` for the three options; anything else
 * is a StartupError. Hand-written rather than `util.parseArgs` because loading
 * that takes about 2 ms, and a stdio server is started for every session.
 */
export function readOptions(argv: readonly string[]): StartOptions {
  const values: Partial<Record<keyof StartOptions, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = (arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '') as keyof StartOptions;
    if (!optionNames.includes(name)) throw new StartupError(`unknown argument "${arg}"; expected --transport, --host or --port`);
    if (values[name] !== undefined) throw new StartupError(`--${name} is given twice`);
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) throw new StartupError(`--${name} needs a value`);
    values[name] = value;
  }
  return values;
}

/** The state-handle codec, keyed from the environment; only for registries with handle kinds. */
async function handleCodec(registry: RegistrySpec, environment: NodeJS.ProcessEnv, local: boolean): Promise<HandleCodec> {
  const [{ loadKey }, { HandleCodec }] = await Promise.all([import('./keys.gen.js'), import('./handles.gen.js')]);
  return new HandleCodec(loadKey(registry.secrets.handleKeyEnv, environment, local, logToStderr));
}

/** The approval service, keyed from the environment; only when some tool asks for approval. */
async function approvalService(registry: RegistrySpec, environment: NodeJS.ProcessEnv, local: boolean): Promise<Approvals> {
  const [{ loadKey }, { Approvals }] = await Promise.all([import('./keys.gen.js'), import('./approval.gen.js')]);
  return new Approvals(loadKey(registry.secrets.requestStateKeyEnv, environment, local, logToStderr), (ctx) => principalOf(ctx).id);
}

/** Starts the server as the command line asks: `--transport stdio|http`, `--host`, `--port`. */
export async function startServer(definition: ServerDefinition, argv: readonly string[], environment: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { registry } = definition;
  const values = readOptions(argv);
  const transport = values.transport ?? (registry.transports.stdio || registry.transports.http === null ? 'stdio' : 'http');
  if (transport !== 'stdio' && transport !== 'http') throw new StartupError(`--transport must be "stdio" or "http", got "${transport}"`);
  // stdio is always available (only the process that starts the server can talk to it); HTTP only when declared.
  if (transport === 'http' && registry.transports.http === null) {
    throw new StartupError('this server declares no HTTP transport; add transports.http to the manifest and regenerate');
  }
  const http = registry.transports.http ?? { host: '127.0.0.1', port: 3000, path: '/mcp', allowedOrigins: [] };
  const host = values.host ?? http.host;
  const port = values.port === undefined ? http.port : /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new StartupError(`--port must be a port number, got "${values.port}"`);
  const local = transport === 'stdio' || loopback.test(host);
  if (!local && registry.auth.type === 'none') {
    throw new StartupError(`refusing to listen on non-loopback host "${host}" without authorization; set auth in the manifest or bind to 127.0.0.1`);
  }

  // Keys, handles, approvals, HTTP and authorization are loaded only when used: a server that signs
  // nothing never loads node:crypto (about 5 ms at start), and a stdio server never loads node:http.
  const handles = registry.handles.length > 0 ? await handleCodec(registry, environment, local) : null;
  const approvals = registry.tools.some((tool) => tool.approval === 'confirm') ? await approvalService(registry, environment, local) : null;
  const env: CallEnv = { registry, handles, approvals, log: logToStderr };
  const factory = createFactory(definition, env);
  if (transport === 'stdio') {
    startStdio(factory, registry.protocol.versions, registry.protocol.legacy, logToStderr);
    return;
  }
  const auth = await httpAuth(registry, http.path, environment);
  const { startHttp } = await import('./http.gen.js');
  const server = await startHttp(factory, { ...http, host, port, legacy: registry.protocol.legacy }, auth, logToStderr);
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? `${host}:${address.port}` : `${host}:${port}`;
  logToStderr(`${registry.server.name} listening on http://${shown}${http.path}`);
}

/** Runs `startServer` and turns a StartupError into one line on stderr and exit code 1. */
export function main(definition: ServerDefinition, argv: readonly string[] = process.argv.slice(2)): void {
  startServer(definition, argv).catch((error: unknown) => {
    if (error instanceof StartupError) {
      logToStderr(`${definition.registry.server.name}: ${error.message}`);
    } else {
      logToStderr(`${definition.registry.server.name}: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    process.exitCode = 1;
  });
}

// ---- register.gen.ts ----

/**
 * Builds an McpServer from the registry and the user's handlers. Schemas are
 * compiled once (compileSchemas, called at module scope by server.gen.ts):
 * the HTTP entry calls the server factory on every request, and compiling a
 * JSON Schema per request costs several times the throughput.
 */

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

// ---- invoke.gen.ts ----

/**
 * Runs one handler call: verifies state handles, builds the handler's
 * context, shapes the result, and keeps internals out of error messages
 * (details and stacks go to stderr only).
 */

/** What every call needs besides its own arguments. */
export interface CallEnv {
  readonly registry: RegistrySpec;
  /** Signs and verifies state handles; null when the registry declares no handle kinds. */
  readonly handles: HandleCodec | null;
  /** Asks for and checks approvals; null when no tool needs one. */
  readonly approvals: Approvals | null;
  /** Writes one diagnostic line to stderr. */
  readonly log: (message: string) => void;
}

/** The principal making the request, from the verified auth info; `anonymous` without auth. */
export function principalOf(ctx: ServerContext): Principal {
  const auth = ctx.http?.authInfo;
  if (auth === undefined) return { id: 'anonymous', scopes: [] };
  const principal = typeof auth.extra?.principal === 'string' ? auth.extra.principal : auth.clientId;
  return { id: principal, scopes: [...auth.scopes] };
}

function handlerContext(ctx: ServerContext, env: CallEnv): HandlerContext<Record<string, { issue(id: string): string }>> {
  const principal = principalOf(ctx);
  const issuers: Record<string, { issue(id: string): string }> = {};
  for (const kind of env.registry.handles) {
    issuers[kind.name] = { issue: (id: string) => codecOf(env).issue(kind.name, id, principal.id, kind.ttlMs) };
  }
  // With a state key every echoed state was verified by the SDK hook and is a payload; without one it is the raw string.
  const state = ctx.mcpReq.requestState<unknown>();
  const requestState = env.approvals === null ? (typeof state === 'string' ? state : undefined) : env.approvals.handlerState(state);
  const token = ctx.mcpReq._meta?.progressToken;
  const progress = async (value: number, total?: number, message?: string): Promise<void> => {
    if (token === undefined) return;
    const params = { progressToken: token, progress: value, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
    await ctx.mcpReq.notify({ method: 'notifications/progress', params });
  };
  return {
    principal,
    handles: issuers,
    signal: ctx.mcpReq.signal,
    log: (message: string) => {
      env.log(message);
      // A no-op except on a legacy HTTP session whose client asked for logs (legacy-http.gen.ts).
      ctx.mcpReq.log('info', message).catch(() => {});
    },
    progress,
    request: { inputResponses: ctx.mcpReq.inputResponses ?? {}, requestState },
  };
}

/**
 * The result a handler wrapped in `sdkResult`, as-is, except that a handler's own `requestState`
 * is sealed when the server has a state key (the SDK's verify hook would refuse it otherwise).
 */
async function passThrough<R extends AnySdkResult>(reply: SdkResult<R>, ctx: ServerContext, env: CallEnv): Promise<R> {
  const result = reply.result;
  if (!isInputRequiredResult(result) || result.requestState === undefined || env.approvals === null) return result;
  return { ...result, requestState: await env.approvals.seal(result.requestState, ctx) };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** The handle codec; start.gen.ts loads one whenever the registry declares a handle kind. */
function codecOf(env: CallEnv): HandleCodec {
  if (env.handles === null) throw new Error('this server has no handle key, but its registry uses state handles');
  return env.handles;
}

/**
 * Calls a tool handler and shapes its result: structuredContent plus a text
 * copy, or content. Handles are verified first (a bad handle is not worth
 * asking the user about), then a tool that needs approval runs only once
 * `Approvals.check` lets it.
 */
export async function callTool(
  tool: ToolSpec,
  handler: AnyToolHandler | undefined,
  args: unknown,
  ctx: ServerContext,
  env: CallEnv,
): Promise<CallToolResult | InputRequiredResult> {
  const context = handlerContext(ctx, env);
  let input: unknown;
  try {
    input = tool.handles.consumes.length === 0 ? (args ?? {}) : codecOf(env).open(tool.handles.consumes, args ?? {}, context.principal.id);
  } catch (error) {
    if (error instanceof HandleError) return errorResult(`Invalid arguments for tool ${tool.name}: ${error.message}`);
    throw error;
  }
  if (handler === undefined) return errorResult(`The tool "${tool.name}" has no handler.`);
  if (tool.approval === 'confirm') {
    // Fail closed: a registry that asks for approval without an approvals service never runs the tool.
    if (env.approvals === null) return errorResult(`The tool "${tool.name}" needs approval, but approvals are not configured.`);
    const verdict = await env.approvals.check(tool, args ?? {}, context.principal.id, ctx);
    if (!verdict.proceed) return verdict.result;
  }
  try {
    const output = await handler(input as never, context as never);
    if (output instanceof SdkResult) return await passThrough(output as SdkResult<CallToolResult | InputRequiredResult>, ctx, env);
    if (tool.outputSchema !== null) {
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output as Record<string, unknown> };
    }
    return { content: typeof output === 'string' ? [{ type: 'text', text: output }] : [...(output as CallToolResult['content'])] };
  } catch (error) {
    if (error instanceof ToolError) return errorResult(error.message);
    env.log(`tool "${tool.name}" failed: ${describe(error)}`);
    return errorResult(`The tool "${tool.name}" failed. Details were logged on the server.`);
  }
}

function toContents(reply: Exclude<ResourceReply, SdkResult<AnySdkResult>>, uri: URL, spec: ResourceSpec): ReadResourceResult['contents'] {
  const mimeType = spec.mimeType === null ? {} : { mimeType: spec.mimeType };
  const list: readonly ResourceContent[] = typeof reply === 'string' ? [{ text: reply }] : Array.isArray(reply) ? reply : [reply as ResourceContent];
  return list.map((content) => ({ uri: content.uri ?? uri.href, ...mimeType, ...content }));
}

/** Calls a resource handler; a missing resource is -32602, anything unexpected a generic -32603. */
export async function callResource(
  spec: ResourceSpec,
  handler: AnyResourceHandler | undefined,
  uri: URL,
  variables: Record<string, string | string[]>,
  ctx: ServerContext,
  env: CallEnv,
): Promise<ReadResourceResult | InputRequiredResult> {
  if (handler === undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, `The resource "${spec.name}" has no handler.`);
  try {
    const reply = await handler(uri, variables as never, handlerContext(ctx, env) as never);
    if (reply instanceof SdkResult) return await passThrough(reply, ctx, env);
    return { contents: toContents(reply, uri, spec) };
  } catch (error) {
    if (error instanceof ResourceNotFoundError) throw new SdkResourceNotFoundError(error.uri);
    if (error instanceof ToolError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    env.log(`resource "${spec.name}" failed: ${describe(error)}`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Reading resource "${spec.name}" failed. Details were logged on the server.`);
  }
}

/** Replaces `{{name}}` placeholders with argument values; a missing optional argument becomes "". */
export function renderText(text: string, args: Readonly<Record<string, string | undefined>>): string {
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_match, name: string) => args[name] ?? '');
}

/** Renders a prompt from its fixed messages, or calls its handler. */
export async function callPrompt(
  spec: PromptSpec,
  handler: AnyPromptHandler | undefined,
  args: Record<string, string | undefined>,
  ctx: ServerContext,
  env: CallEnv,
): Promise<GetPromptResult | InputRequiredResult> {
  const description = spec.description === null ? {} : { description: spec.description };
  let messages: readonly PromptMessageReply[];
  if (spec.messages !== null) {
    messages = spec.messages.map((m) => ({ role: m.role, text: renderText(m.text, args) }));
  } else if (handler === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The prompt "${spec.name}" has no handler.`);
  } else {
    try {
      const reply = await handler(args as never, handlerContext(ctx, env) as never);
      if (reply instanceof SdkResult) return await passThrough(reply, ctx, env);
      messages = reply;
    } catch (error) {
      if (error instanceof ToolError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      env.log(`prompt "${spec.name}" failed: ${describe(error)}`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Getting prompt "${spec.name}" failed. Details were logged on the server.`);
    }
  }
  return { ...description, messages: messages.map((m) => ({ role: m.role, content: 'content' in m ? m.content : { type: 'text', text: m.text } })) };
}

// ---- stdio.gen.ts ----

/**
 * stdio: newline-delimited JSON-RPC on stdin/stdout. stdout carries only
 * protocol messages; every diagnostic goes to stderr. The process exits when
 * stdin closes.
 *
 * Two checks sit in front of the SDK's stdio transport. The envelope filter
 * answers lines the SDK would silently drop (bad JSON, `id: null`, a wrong
 * `jsonrpc`, batches), so a client waiting for an answer never hangs: -32700
 * (parse error) or -32600 (invalid request), with `id: null` when the id
 * itself is unusable, as JSON-RPC 2.0 requires. The version guard then checks
 * each request's `_meta` envelope and protocol version. Both live in this one
 * module because every stdio start loads them.
 */

/** Largest accepted line, in bytes; longer lines are answered -32600 and never parsed. */
export const maxLineBytes = 4 * 1024 * 1024;

function errorLine(id: unknown, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}

/** The answer to one input line that must not reach the SDK, or null when the line is fine. */
export function rejectLine(line: string): string | null {
  if (line.trim() === '') return null;
  if (Buffer.byteLength(line, 'utf8') > maxLineBytes) return errorLine(null, -32600, 'Invalid Request: message too large');
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return errorLine(null, -32700, 'Parse error');
  }
  if (Array.isArray(message)) return errorLine(null, -32600, 'Invalid Request: batches are not supported');
  if (message === null || typeof message !== 'object') return errorLine(null, -32600, 'Invalid Request: expected a JSON-RPC object');
  const m = message as Record<string, unknown>;
  const hasId = 'id' in m;
  // MCP narrows JSON-RPC ids to strings and integers.
  const idUsable = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isSafeInteger(m.id));
  if (hasId && !idUsable) return errorLine(null, -32600, 'Invalid Request: id must be a string or a number');
  const id = hasId ? m.id : null;
  if (m.jsonrpc !== '2.0') return hasId || !('method' in m) ? errorLine(id, -32600, 'Invalid Request: jsonrpc must be "2.0"') : '';
  if ('method' in m && typeof m.method !== 'string') return hasId ? errorLine(id, -32600, 'Invalid Request: method must be a string') : '';
  // MCP params are always by name: an object, never an array.
  if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) return hasId ? errorLine(id, -32600, 'Invalid Request: params must be an object') : '';
  const meta = (m.params as Record<string, unknown> | undefined)?._meta;
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return hasId ? errorLine(id, -32600, 'Invalid Request: _meta must be an object') : '';
  return null;
}

/**
 * Splits stdin into lines and forwards the good ones; `answer` writes the reply
 * to a rejected line (an empty reply means: a malformed notification, dropped
 * without an answer, since notifications are never answered).
 */
export class EnvelopeFilter extends Transform {
  private pending = '';

  constructor(private readonly answer: (text: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString('utf8');
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      this.forward(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    if (Buffer.byteLength(this.pending, 'utf8') > maxLineBytes) {
      this.answer(errorLine(null, -32600, 'Invalid Request: message too large'));
      this.pending = '';
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending.trim() !== '') this.forward(this.pending);
    this.pending = '';
    done();
  }

  private forward(line: string): void {
    const rejected = rejectLine(line);
    if (rejected === null) this.push(`${line}\n`);
    else if (rejected !== '') this.answer(rejected);
  }
}

const versionKey = 'io.modelcontextprotocol/protocolVersion';

/**
 * Answers -32022 to every request whose `_meta` names a well-formed but
 * unsupported protocol version. The SDK checks this only until the connection
 * is pinned to an era; the spec wants it on every request.
 */
export class VersionGuardTransport implements Transport {
  /**
   * Which era this connection speaks, from its first request: a 2026-07-28
   * envelope makes it modern, `initialize` makes it legacy. On a modern
   * connection a request without a valid envelope is answered -32602 here and
   * never reaches the SDK, which would otherwise re-pin the connection to the
   * 2025 era and break later multi round-trip calls.
   */
  private era: 'unknown' | 'modern' | 'legacy' = 'unknown';
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly supported: readonly string[],
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const modern = envelopeOf(message) !== undefined;
      if ('id' in message && 'method' in message) {
        if (this.era === 'unknown') this.era = modern ? 'modern' : message.method === 'initialize' ? 'legacy' : 'unknown';
        // Before the era is known, only `initialize` may come without an envelope: anything else
        // is invalid in both eras and must not make the SDK pin the connection to 2025.
        const problem = this.era === 'legacy' ? undefined : envelopeProblem(message);
        if (problem !== undefined) {
          this.answer({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: problem } } as JSONRPCMessage);
          return;
        }
      } else if ('method' in message && !modern && this.era !== 'legacy') {
        return; // a notification without an envelope outside the 2025 era: invalid, and never answered
      }
      const requested = versionOf(message);
      if (requested !== undefined && 'id' in message && 'method' in message && !this.supported.includes(requested)) {
        this.answer({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32022, message: `Unsupported protocol version: ${requested}`, data: { supported: [...this.supported], requested } },
        } as JSONRPCMessage);
        return;
      }
      this.onmessage?.(message, extra);
    };
  }

  /**
   * Sends an answer of the guard's own. A write that fails (the host stopped
   * reading: EPIPE) is reported like the SDK's own failed writes, through
   * onerror, instead of becoming an unhandled rejection that kills the process.
   */
  private answer(message: JSONRPCMessage): void {
    this.inner.send(message).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function envelopeOf(message: unknown): Record<string, unknown> | undefined {
  const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) && versionKey in meta ? (meta as Record<string, unknown>) : undefined;
}

/** Why a request on a modern connection lacks a valid 2026-07-28 envelope, or undefined when it has one. */
function envelopeProblem(message: unknown): string | undefined {
  const meta = envelopeOf(message);
  if (meta === undefined) return 'Request is missing the required _meta envelope for protocol revision 2026-07-28 (io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)';
  if (typeof meta[versionKey] !== 'string') return 'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/protocolVersion must be a string';
  const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
  if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)) {
    return 'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/clientCapabilities must be an object';
  }
  return undefined;
}

function versionOf(message: unknown): string | undefined {
  const params = (message as { params?: { _meta?: Record<string, unknown> } }).params;
  const version = params?._meta?.[versionKey];
  return typeof version === 'string' ? version : undefined;
}

/** Serves `factory` on stdin/stdout until stdin closes. */
export function startStdio(factory: McpServerFactory, versions: readonly string[], legacy: 'serve' | 'reject', log: (message: string) => void): { close(): Promise<void> } {
  // Malformed lines are answered here, before the SDK, which would drop them without a word.
  const input = process.stdin.pipe(new EnvelopeFilter((text) => process.stdout.write(text)));
  return serveStdio(factory, {
    legacy,
    transport: new VersionGuardTransport(new StdioServerTransport(input, process.stdout), versions),
    onerror: (error) => log(`stdio: ${error.message}`),
  });
}
