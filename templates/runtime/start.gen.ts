/**
 * Process entry: reads the command line, loads the optional modules server.gen.ts names, runs `setup`, and starts the
 * transport: stdio (stdio.gen.ts, always there) or HTTP (http.gen.ts). Declares the server definition and the module
 * slots (RuntimeModules) every optional module is loaded through.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { type ReadyCheck, type SetupTools, StartupError, undeclaredNotify } from './handler.gen.js';
import { buildServer, selectTools, type CompiledSchemas, type HandlerSet, type Registrar } from './register.gen.js';
import type { CallEnv } from './call.gen.js';
import type { ApprovalHooks, CallGuard, HandleHooks, SearchHooks, TaskHooks } from './hooks.gen.js';
import { ServerLifecycle } from './lifecycle.gen.js';
import { hideSecrets, logToStderr } from './log.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import { startStdio } from './stdio.gen.js';
import type {
  ChangeBus,
  Changes,
  Lazy,
  PageServer,
  Readiness,
  ServeHttp,
  StartOptions,
  Startup,
  Telemetry,
} from './startup.gen.js';

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
      throw new StartupError(`unknown argument "${arg}"; expected --transport, --host or --port (see --help)`);
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
  const http = transport === 'http' && modules.http !== undefined ? await modules.http() : null;
  const opened = await openServer(definition, environment, transport === 'http' ? 'tcp' : 'pipe', local);
  const { startup, build, changes, tasks } = opened;
  const { lifecycle, telemetry } = startup;
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
    else await http.serveHttp(opened, values);
  } catch (error) {
    await lifecycle.stop();
    throw error;
  }
  // Last: whatever start-up still awaits (the listener above, any later step) keeps /readyz at 503 until it is done.
  startup.readiness.started = true;
}

/** A server ready to serve: its start-up, the builder of one request's server, what transports need. */
export interface OpenedServer {
  readonly startup: Startup;
  readonly build: (onlyTool?: string, narrow?: ReadonlySet<string>) => McpServer;
  readonly changes: Changes | null;
  readonly tasks: TaskHooks | null;
  readonly pages: PageServer | null;
}

/** All before serving, for any transport or the fetch handler; `platform`: a Worker's env. */
export async function openServer(
  definition: ServerDefinition,
  environment: NodeJS.ProcessEnv,
  network: 'pipe' | 'tcp',
  local: boolean,
  platform: Readonly<Record<string, unknown>> = {},
): Promise<OpenedServer> {
  const { registry, modules } = definition;
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
  const telemetry = modules.telemetry === undefined ? null : (await modules.telemetry()).openTelemetry(network);
  const log = logToStderr;
  if (modules.upstream !== undefined) (await modules.upstream()).startUpstream(config, telemetry);
  const startup: Startup = { registry, modules, environment, local, log, lifecycle, readiness, telemetry, platform };

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
  return { startup, build, changes, tasks, pages: approvals?.pages ?? null };
}

/** Runs `startServer` and turns a StartupError into one line on stderr and exit code 1. */
export function main(definition: ServerDefinition, argv: readonly string[] = process.argv.slice(2)): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      'Usage: node dist/server.mjs [--transport stdio|http] [--host HOST] [--port PORT]\n' +
        'Environment variables: see .env.example\n',
    );
    return;
  }
  startServer(definition, argv).catch((error: unknown) => {
    const detail =
      error instanceof StartupError
        ? error.message
        : `failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    logToStderr(`${definition.registry.server.name}: ${detail}`);
    process.exitCode = 1;
  });
}
