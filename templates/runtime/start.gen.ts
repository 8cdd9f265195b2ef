/**
 * Process entry: reads the command line, loads the optional modules server.gen.ts names, starts the transport. stdio
 * (always
 * there) is newline-delimited JSON-RPC: stdout carries only protocol messages, diagnostics go to stderr, and the
 * process exits
 * when stdin closes. In front of the SDK's stdio transport, the envelope filter answers lines the SDK would silently
 * drop (bad
 * JSON, `id: null`, a wrong `jsonrpc`, batches: -32700 or -32600, `id: null` when the id is unusable, as JSON-RPC 2.0
 * requires),
 * so a waiting client never hangs; the version guard then checks each request's `_meta` envelope and protocol version.
 */
import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import type {
  JSONRPCMessage,
  McpServer,
  McpServerFactory,
  Server,
  ServerEventBus,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { type Notify, type ReadyCheck, type SetupTools, StartupError, undeclaredNotify } from './handler.gen.js';
import { buildServer, selectTools, type CompiledSchemas, type HandlerSet, type Registrar } from './register.gen.js';
import type { CallEnv } from './call.gen.js';
import type { ApprovalHooks, CallGuard, HandleHooks, SearchHooks, TaskHooks } from './hooks.gen.js';
import type { RegistrySpec } from './spec.gen.js';

/** Everything server.gen.ts knows about this server. */
export interface ServerDefinition {
  readonly registry: RegistrySpec;
  readonly schemas: CompiledSchemas;
  readonly handlers: HandlerSet;
  readonly modules: RuntimeModules;
  /** src/setup.ts, the user's: imported once the configuration has been read. */
  readonly setup: Lazy<SetupModule>;
}

/**
 * src/setup.ts: `setup` runs once before the first request and its result is every handler's `ctx.services`;
 * `teardown`, when exported, runs once at shutdown with it; `ready`, when exported, names checks `/readyz` runs with
 * it. server.gen.ts checks the module with the precise types.
 */
export interface SetupModule<Config = never, Services = unknown> {
  // Methods, not function properties: a module typed with the project's own Services still fits the default.
  setup(config: Config, tools: SetupTools): Services | Promise<Services>;
  teardown?(services: Services): unknown;
  // never: a check of any Services fits here; the project's ReadyChecks type checks them against its own.
  readonly ready?: Readonly<Record<string, ReadyCheck<never>>>;
}

/**
 * The server's life around `setup` and `teardown`. `setupDone` turns true once `setup` has returned (a readiness
 * check may wait for it); `stop` runs `teardown` once, however often it is called, after the transport has drained,
 * and resolves to the exit code (1 when teardown failed or overran its five seconds).
 */
export interface Lifecycle {
  readonly setupDone: boolean;
  stop(): Promise<number>;
}

/**
 * What `/readyz` reports (http.gen.ts): `started` turns true once start-up has finished; each check (the store's
 * ping, setup.ts's `ready`) resolves to nothing while its dependency answers, else rejects or resolves to the reason
 * `/readyz` shows. Modules add checks at start-up; nothing else reads them.
 */
export interface Readiness {
  started: boolean;
  readonly checks: Map<string, ReadinessCheck>;
}

/** One check of Readiness: a string it resolves to is why it fails; `signal` aborts when its time is up. */
export type ReadinessCheck = (signal: AbortSignal) => Promise<unknown>;

/** What an optional module gets at start-up; `local`: only this machine can connect (stdio, loopback HTTP). */
export type Startup = {
  readonly registry: RegistrySpec;
  readonly modules: RuntimeModules;
  readonly environment: NodeJS.ProcessEnv;
  readonly local: boolean;
  readonly log: (message: string) => void;
  readonly lifecycle: Lifecycle;
  readonly readiness: Readiness;
  readonly telemetry: Telemetry | null;
};

export type TelemetryAttributes = Readonly<Record<string, string | number | boolean>>;

/** telemetry.gen.ts: traces a server's requests; child spans, events and log ids in the active request's span. */
export interface Telemetry {
  instrument(server: McpServer): McpServer;
  withSpan<T>(
    name: string,
    attributes: TelemetryAttributes,
    fn: () => Promise<T>,
    kind?: 'internal' | 'client',
  ): Promise<T>;
  event(name: string, attributes: TelemetryAttributes): void;
  logIds(): string;
}

/** The command-line options a server understands. */
export type StartOptions = { readonly transport?: string; readonly host?: string; readonly port?: string };

/**
 * http.gen.ts's entry: serves HTTP with `build` making the server for each request (`onlyTool`: the one tool it calls;
 * `narrow`: the tools of the toolsets the request names);
 * `changes`, with `notifications`: what `subscriptions/listen` streams and legacy sessions hear.
 */
export type ServeHttp = (
  startup: Startup,
  options: StartOptions,
  build: (onlyTool?: string, narrow?: ReadonlySet<string>) => McpServer,
  changes: Changes | null,
  tasks: TaskHooks | null,
  pages: PageServer | null,
) => Promise<void>;

/** approval-page.gen.ts: pages under `/approvals/`; `attach` names the HTTP origin the links point to. */
export type PageServer = {
  attach(o: string): void;
  serve(r: IncomingMessage, p: string, o: string): Promise<Response>;
};

/** One event on the change bus: JSON, named by `kind` (notify.gen.ts documents the bus). */
export type BusEvent = { readonly kind: string; readonly [field: string]: unknown };

/** The change bus, of this process or of every instance (notify.gen.ts's header has its contract). */
export interface ChangeBus {
  publish(event: BusEvent): void;
  listen(filter: (event: BusEvent) => boolean, listener: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}

/**
 * notify.gen.ts's bus at work (manifest `notifications`): `events` feeds the SDK's listen router, `attach` delivers to
 * one connection's server (stdio, a legacy session), `notify` is `ctx.notify`; other features publish on `bus`.
 */
export interface Changes {
  readonly bus: ChangeBus;
  readonly events: ServerEventBus;
  readonly notify: Notify;
  readonly attach: (server: Server, legacy: boolean) => void;
}

/** Imports a runtime module when it is first needed: `() => import('./runtime/http.gen.js')`, a static specifier. */
export type Lazy<M> = () => Promise<M>;

/**
 * The optional runtime modules, which mcp-gen ships and lists in server.gen.ts exactly when the manifest uses them; the
 * runtime loads the ones it is given. Each slot names what the runtime calls, and tsc checks the module against it
 * where
 * server.gen.ts assigns the import. A module that loads another declares that slot beside the call (http.gen.ts,
 * auth.gen.ts, store.gen.ts).
 */
export interface RuntimeModules {
  readonly http?: Lazy<{ readonly serveHttp: ServeHttp }>;
  readonly handles?: Lazy<{ readonly handleHooks: (startup: Startup) => HandleHooks }>;
  readonly store?: Lazy<{
    readonly openStore: (
      startup: Startup,
      bus: ChangeBus | null,
    ) => Promise<{
      readonly approvals: (ApprovalHooks & { readonly pages: PageServer | null }) | null;
      readonly guard: CallGuard;
      readonly tasks: TaskHooks | null;
    }>;
  }>;
  readonly resources?: Lazy<{ readonly registerResources: Registrar }>;
  readonly prompts?: Lazy<{ readonly promptRegistrar: (registry: RegistrySpec) => Registrar }>;
  /** legacy.gen.ts, with `legacy: serve`: what a 2025-11-25 connection adds, loaded on the first one. */
  readonly legacy?: Lazy<{ readonly adaptLegacy: (server: McpServer) => McpServer }>;
  readonly telemetry?: Lazy<{ readonly openTelemetry: (network: 'pipe' | 'tcp') => Telemetry }>;
  /** notify.gen.ts, with `notifications`; it loads notify-redis.gen.ts (`store: redis`). */
  readonly notify?: Lazy<{ readonly openChanges: (startup: Startup) => Promise<Changes> }>;
  readonly config?: Lazy<{
    readonly readConfig: (registry: RegistrySpec, environment: NodeJS.ProcessEnv) => Readonly<Record<string, unknown>>;
  }>;
  /** upstream.gen.ts, with a tool bound to `http:`: takes the configuration start-up read, and telemetry. */
  readonly upstream?: Lazy<{
    readonly startUpstream: (config: Readonly<Record<string, unknown>>, telemetry: Telemetry | null) => void;
  }>;
  /** search.gen.ts, with `discovery: search`: indexes the selected tools once. */
  readonly search?: Lazy<{ readonly searchHooks: (registry: RegistrySpec, tools: ReadonlySet<string>) => SearchHooks }>;
}

/**
 * Writes one diagnostic entry to stderr: stdout belongs to the protocol on stdio. Control characters are escaped (`\n`,
 * `\r`, `\x1b`, ...) so that text from a request cannot forge or rewrite an entry; only a line break before a space
 * stays (a stack's frames, a list of problems), so every line after an entry's first is indented under it.
 */
export const logToStderr = (message: string): void =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped
  void process.stderr.write(`${redact(message).replace(/(\n(?= ))|[\0-\x1f\x7f]/g, escapeControl)}\n`);

/** The secret values start-up read (hideSecrets), longest first; never written to a log. */
const secretTexts: string[] = [];

/**
 * `text` with every secret value start-up read and every credential of a URL, well-formed or not (`//user:password@`,
 * `user:password@`, `//token@`: a mistyped `redis//default:PASS@host` too), replaced by `***`.
 */
export function redact(text: string): string {
  let result = text;
  for (const secret of secretTexts) result = result.split(secret).join('***');
  return result.replace(/[^\s/@:]*:[^\s/@]*@|(?<=\/\/)[^\s/@]+@/g, '***@');
}

/**
 * Adds the values of `names` in `environment` to what `redact` hides, and a URL's password; of `connections` (the
 * store URL, its host worth logging) only the password, or the whole value when it does not parse.
 */
export function hideSecrets(environment: NodeJS.ProcessEnv, names: readonly string[], connections: string[] = []) {
  for (const name of [...names, ...connections]) {
    const value = environment[name] ?? '';
    const url = URL.canParse(value) ? new URL(value) : null;
    const password = url?.password ?? '';
    const whole = url === null || names.includes(name) ? value : '';
    // Shorter values would hide ordinary words; a URL's shorter password is hidden by its `:password@` shape.
    for (const secret of [whole, password, decodeURIComponent(password.replace(/%(?![0-9a-f]{2})/gi, '%25'))])
      if (secret.length >= 6 && !secretTexts.includes(secret)) secretTexts.push(secret);
  }
  secretTexts.sort((a, b) => b.length - a.length);
}

const escapeControl = (c: string, frame: string | undefined): string =>
  frame ?? (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

const optionNames: readonly (keyof StartOptions)[] = ['transport', 'host', 'port'];

/**
 * Reads `--name value` and `--name=value`; anything else is a StartupError. Not `util.parseArgs`: loading it costs
 * every start.
 */
export function readOptions(argv: readonly string[]): StartOptions {
  const values: Partial<Record<keyof StartOptions, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = (arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '') as keyof StartOptions;
    if (!optionNames.includes(name))
      throw new StartupError(`unknown argument "${arg}"; expected --transport, --host or --port`);
    if (values[name] !== undefined) throw new StartupError(`--${name} is given twice`);
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--')))
      throw new StartupError(`--${name} needs a value`);
    values[name] = value;
  }
  return values;
}

/** Starts the server as the command line asks: `--transport stdio|http`, `--host`, `--port`. */
export async function startServer(
  definition: ServerDefinition,
  argv: readonly string[],
  environment: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const { registry, modules } = definition;
  const values = readOptions(argv);
  const transport =
    values.transport ?? (registry.transports.stdio || registry.transports.http === null ? 'stdio' : 'http');
  if (transport !== 'stdio' && transport !== 'http')
    throw new StartupError(`--transport must be "stdio" or "http", got "${transport}"`);
  // stdio is always available (only the process that starts the server can talk to it); HTTP only when declared.
  if (transport === 'http' && (registry.transports.http === null || modules.http === undefined))
    throw new StartupError(
      'this server declares no HTTP transport; add transports.http to the manifest and regenerate',
    );
  const host = values.host ?? registry.transports.http?.host ?? '127.0.0.1';
  const local = transport === 'stdio' || /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/.test(host);
  if (!local && registry.auth.type === 'none')
    throw new StartupError(
      `refusing to listen on non-loopback host "${host}" without authorization; set auth in the manifest or bind to ` +
        `127.0.0.1`,
    );
  // A signing key that is set but short is a mistake, not a development default: outside this machine the server
  // refuses to start whichever feature reads it (handles, approvals, list cursors).
  for (const name of local ? [] : [registry.secrets.handleKeyEnv, registry.secrets.requestStateKeyEnv]) {
    const key = environment[name] ?? '';
    if (key !== '' && Buffer.byteLength(key) < 32)
      throw new StartupError(
        `${name} is shorter than 32 bytes; set it to a random secret of at least 32 bytes (e.g. \`openssl rand -hex ` +
          '32`) and share it between all instances',
      );
  }
  const { auth, store } = registry;
  // Before anything can log: the secret config values, the signing keys, bearer tokens and the store URL.
  hideSecrets(
    environment,
    [
      ...registry.config.filter((variable) => variable.secret).map((variable) => variable.name),
      registry.secrets.handleKeyEnv,
      registry.secrets.requestStateKeyEnv,
      auth.type === 'bearer' ? auth.tokensEnv : '',
    ],
    store.type === 'redis' ? [store.urlEnv] : [],
  );
  // Every configuration problem at once, before anything else starts: an operator fixes the environment in one go.
  const config = modules.config === undefined ? {} : (await modules.config()).readConfig(registry, environment);
  const lifecycle = new ServerLifecycle(definition.setup, logToStderr);
  const readiness: Readiness = { started: false, checks: new Map() };
  const network = transport === 'http' ? 'tcp' : 'pipe';
  const telemetry = modules.telemetry === undefined ? null : (await modules.telemetry()).openTelemetry(network);
  const log = logToStderr;
  if (modules.upstream !== undefined) (await modules.upstream()).startUpstream(config, telemetry);
  const startup: Startup = { registry, modules, environment, local, log, lifecycle, readiness, telemetry };
  const http = transport === 'http' && modules.http !== undefined ? await modules.http() : null;

  // Optional modules load only when used (no node:crypto unless signing), in a fixed order for stable
  // warnings.
  const handles = modules.handles === undefined ? null : (await modules.handles()).handleHooks(startup);
  // The change bus before the store: task writes publish on it (notifications/tasks).
  const changes = modules.notify === undefined ? null : await (await modules.notify()).openChanges(startup);
  const { approvals, guard, tasks } =
    modules.store === undefined
      ? { approvals: null, guard: null, tasks: null }
      : await (await modules.store()).openStore(startup, changes?.bus ?? null);
  const registrars: Registrar[] = [];
  if (modules.resources !== undefined) registrars.push((await modules.resources()).registerResources);
  if (modules.prompts !== undefined) registrars.push((await modules.prompts()).promptRegistrar(registry));
  // Last before serving: nothing that could still refuse to start runs after the user's setup has opened things.
  const mode = environment.MCP_GEN_TEST_MODE === '1' ? 'test' : 'serve';
  const notify = changes?.notify ?? undeclaredNotify;
  const services = await lifecycle.start(config, { mode, log: logToStderr, notify }, readiness);
  const tools = selectTools(registry, environment);
  const search = modules.search === undefined ? null : (await modules.search()).searchHooks(registry, tools);
  const env: CallEnv = {
    registry,
    handles,
    approvals,
    guard,
    tasks,
    log,
    services,
    telemetry,
    notify,
    environment,
    tools,
    search,
  };
  const build = (onlyTool?: string, narrow?: ReadonlySet<string>): McpServer =>
    buildServer(definition, env, registrars, onlyTool, narrow);
  try {
    if (http === null)
      startStdio(
        async (ctx) => {
          const { legacy } = modules;
          const era = ctx?.era === 'legacy' && legacy !== undefined ? 'legacy' : 'modern';
          const built = telemetry?.instrument(build()) ?? build();
          const server = era === 'legacy' && legacy !== undefined ? (await legacy()).adaptLegacy(built) : built;
          // One server serves the whole connection: it hears the bus (the SDK routes modern ones to listen streams).
          changes?.attach(server.server, era === 'legacy');
          return server;
        },
        registry.protocol.versions,
        registry.protocol.legacy,
        logToStderr,
        registry.transports.stdio?.maxConcurrentCalls,
        lifecycle,
        tasks === null ? undefined : (transport) => tasks.stdio(transport),
        registry.discover.supportedVersions,
      );
    else await http.serveHttp(startup, values, build, changes, tasks, approvals?.pages ?? null);
  } catch (error) {
    await lifecycle.stop();
    throw error;
  }
  // Last: whatever start-up still awaits (the listener above, any later step) keeps /readyz at 503 until it is done.
  readiness.started = true;
}

/** Longest `teardown` may take before the process exits without it. */
const teardownLimitMs = 5000;

/** The Lifecycle of this process: the user's setup module, its services, and one teardown. */
class ServerLifecycle implements Lifecycle {
  setupDone = false;
  private module: SetupModule<unknown> | null = null;
  private services: unknown;
  private stopping: Promise<number> | undefined;

  constructor(
    private readonly load: Lazy<SetupModule>,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Imports src/setup.ts, runs `setup` and hands its `ready` checks to `/readyz`; a failure is a StartupError that
   * says so, with the user's stack after.
   */
  async start(config: unknown, tools: SetupTools, readiness: Readiness): Promise<unknown> {
    let ready: [string, ReadyCheck<never>][] = [];
    try {
      this.module = (await this.load()) as SetupModule<unknown>;
      ready = Object.entries(this.module.ready ?? {});
      // Checked before setup opens anything: a refusal after it would leave its pool holding the process open.
      const taken = ready.find(([name]) => ['startup', 'store', 'shutdown'].includes(name));
      if (taken !== undefined) throw new Error(`the ready check "${taken[0]}" has the name of a built-in check`);
      this.services = await this.module.setup(config, tools);
    } catch (error) {
      const stack = error instanceof Error ? (error.stack ?? '').split('\n').slice(1).join('\n') : '';
      throw new StartupError(
        `setup failed: ${error instanceof Error ? error.message : String(error)}${stack === '' ? '' : `\n${stack}`}`,
      );
    }
    this.setupDone = true;
    for (const [name, check] of ready)
      readiness.checks.set(name, async (signal) => {
        const verdict = await check(this.services as never, signal);
        if (verdict === false) throw new Error('returned false');
        return typeof verdict === 'string' ? verdict : undefined;
      });
    return this.services;
  }

  stop(): Promise<number> {
    this.stopping ??= this.teardown();
    return this.stopping;
  }

  private async teardown(): Promise<number> {
    const teardown = this.setupDone ? this.module?.teardown : undefined;
    if (teardown === undefined) return 0;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(resolve, teardownLimitMs, `did not finish within ${teardownLimitMs / 1000} s`);
    });
    try {
      const outcome = await Promise.race([Promise.resolve(teardown(this.services)).then(() => null), late]);
      if (outcome === null) return 0;
      this.log(`teardown ${outcome}; exiting without it`);
    } catch (error) {
      this.log(`teardown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
    return 1;
  }
}

/** Runs `startServer` and turns a StartupError into one line on stderr and exit code 1. */
export function main(definition: ServerDefinition, argv: readonly string[] = process.argv.slice(2)): void {
  startServer(definition, argv).catch((error: unknown) => {
    const detail =
      error instanceof StartupError
        ? error.message
        : `failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    logToStderr(`${definition.registry.server.name}: ${detail}`);
    process.exitCode = 1;
  });
}

/** Largest accepted line, in bytes; longer lines are answered -32600, unparsed. */
export const maxLineBytes = 4 * 1024 * 1024;

const errorLine = (id: unknown, code: number, message: string): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;

/**
 * The answer to one input line that must not reach the SDK ('' for a malformed notification: dropped), or null when the
 * line is fine.
 */
export function rejectLine(line: string): string | null {
  if (line.trim() === '') return null;
  if (Buffer.byteLength(line, 'utf8') > maxLineBytes)
    return errorLine(null, -32600, 'Invalid Request: message too large');
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return errorLine(null, -32700, 'Parse error');
  }
  if (Array.isArray(message)) return errorLine(null, -32600, 'Invalid Request: batches are not supported');
  if (message === null || typeof message !== 'object')
    return errorLine(null, -32600, 'Invalid Request: expected a JSON-RPC object');
  const m = message as Record<string, unknown>;
  const hasId = 'id' in m;
  // MCP narrows JSON-RPC ids to strings and integers.
  if (hasId && !(typeof m.id === 'string' || (typeof m.id === 'number' && Number.isSafeInteger(m.id))))
    return errorLine(null, -32600, 'Invalid Request: id must be a string or a number');
  const id = hasId ? m.id : null;
  if (m.jsonrpc !== '2.0')
    return hasId || !('method' in m) ? errorLine(id, -32600, 'Invalid Request: jsonrpc must be "2.0"') : '';
  if ('method' in m && typeof m.method !== 'string')
    return hasId ? errorLine(id, -32600, 'Invalid Request: method must be a string') : '';
  // MCP params are always by name: an object, never an array.
  if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params)))
    return hasId ? errorLine(id, -32600, 'Invalid Request: params must be an object') : '';
  const meta = (m.params as Record<string, unknown> | undefined)?._meta;
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta)))
    return hasId ? errorLine(id, -32600, 'Invalid Request: _meta must be an object') : '';
  return null;
}

/** Splits stdin into lines and forwards the good ones; `answer` writes the reply to a rejected line. */
export class EnvelopeFilter extends Transform {
  private pending = '';

  constructor(private readonly answer: (text: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString('utf8');
    for (let newline = this.pending.indexOf('\n'); newline >= 0; newline = this.pending.indexOf('\n')) {
      this.forward(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
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
 * Answers -32022 to every request naming an unsupported protocol version (the SDK checks only until the connection is
 * pinned
 * to an era). The first request sets the era: a 2026-07-28 envelope modern, `initialize` legacy. On a modern connection
 * a
 * request without a valid envelope is answered -32602 here, or the SDK would re-pin to 2025 and break later MRTR calls.
 */
export class VersionGuardTransport implements Transport {
  private era: 'unknown' | 'modern' | 'legacy' = 'unknown';
  private readonly calls = new Set<unknown>(); // requests in flight
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly supported: readonly string[],
    private readonly maxCalls = 100,
    /** -32022's `data.supported`: with legacy: serve, 2025-11-25 too (registry discover.supportedVersions). */
    private readonly advertised = supported,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const modern = envelopeOf(message) !== undefined;
      if ('id' in message && 'method' in message) {
        if (this.era === 'unknown')
          this.era = modern ? 'modern' : message.method === 'initialize' ? 'legacy' : 'unknown';
        // Before the era is known, only `initialize` may come without an envelope: anything else is invalid in both
        // eras.
        const problem = this.era === 'legacy' ? undefined : envelopeProblem(message);
        if (problem !== undefined)
          return this.answer({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32602, message: problem },
          } as JSONRPCMessage);
      } else if ('method' in message && !modern && this.era !== 'legacy') {
        return; // a notification without an envelope outside the 2025 era: invalid, and never answered
      }
      const requested = envelopeOf(message)?.[versionKey];
      if (
        typeof requested === 'string' &&
        'id' in message &&
        'method' in message &&
        !this.supported.includes(requested)
      ) {
        const data = { supported: [...this.advertised], requested };
        return this.answer({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32022, message: `Unsupported protocol version: ${requested}`, data },
        } as JSONRPCMessage);
      }
      // Over the in-flight cap a clear error at once, rather than work without bound; answers and cancels free a place.
      if ('id' in message && 'method' in message && this.calls.size >= this.maxCalls)
        return this.answer({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32000, message: `Server busy: ${this.maxCalls} requests in flight; retry later` },
        } as JSONRPCMessage);
      if ('id' in message && 'method' in message) this.calls.add(message.id);
      else if ('method' in message && message.method === 'notifications/cancelled')
        this.calls.delete((message.params as { requestId?: unknown } | undefined)?.requestId);
      this.onmessage?.(message, extra);
    };
  }

  /**
   * Sends an answer of the guard's own; a failed write (EPIPE: the host stopped reading) goes to onerror, not to an
   * unhandled rejection.
   */
  private answer(message: JSONRPCMessage): void {
    this.inner
      .send(message)
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  start = (): Promise<void> => this.inner.start();
  close = (): Promise<void> => this.inner.close();

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('id' in message && !('method' in message)) this.calls.delete(message.id);
    return this.inner.send(message, options);
  }
}

/** A request's `_meta` when it names a protocol version (whatever its type). */
function envelopeOf(message: unknown): Record<string, unknown> | undefined {
  const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) && versionKey in meta
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** Why a request on a modern connection lacks a valid 2026-07-28 envelope, or undefined when it has one. */
function envelopeProblem(message: unknown): string | undefined {
  const meta = envelopeOf(message);
  const invalid = 'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/';
  if (meta === undefined)
    return (
      'Request is missing the required _meta envelope for protocol revision 2026-07-28 ' +
      '(io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)'
    );
  if (typeof meta[versionKey] !== 'string') return `${invalid}protocolVersion must be a string`;
  const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
  if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities))
    return `${invalid}clientCapabilities must be an object`;
  return undefined;
}

/**
 * Serves `factory` on stdin/stdout until stdin closes or a SIGTERM/SIGINT comes; then `teardown` runs once and the
 * process exits.
 */
export function startStdio(
  factory: McpServerFactory,
  versions: readonly string[],
  legacy: 'serve' | 'reject',
  log: (message: string) => void,
  maxCalls?: number,
  lifecycle?: Lifecycle,
  wrap?: (transport: Transport) => Transport,
  advertised = versions,
): { close(): Promise<void> } {
  const input = process.stdin.pipe(new EnvelopeFilter((text) => process.stdout.write(text)));
  const stdio = new StdioServerTransport(input, process.stdout);
  const guard = new VersionGuardTransport(stdio, versions, maxCalls, advertised);
  // With task tools: listen subscriptions that ask for tasks (tasks-listen.gen.ts), behind the guard's checks.
  const transport = wrap?.(guard) ?? guard;
  // Once stdin ends the SDK drops every call: after teardown, exit within a second even if a handler that ignored its
  // signal holds the loop.
  const stop = (graceMs: number) => (): void =>
    void (lifecycle?.stop() ?? Promise.resolve(0)).then((code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), graceMs).unref();
    });
  input.once('end', stop(1000));
  if (lifecycle !== undefined) process.once('SIGTERM', stop(0)).once('SIGINT', stop(0));
  return serveStdio(factory, { legacy, transport, onerror: (error) => log(`stdio: ${error.message}`) });
}
