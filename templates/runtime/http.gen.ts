/**
 * Streamable HTTP, the `http` module slot: serves the registry's HTTP transport with `--host` and `--port` applied
 * (http-server.gen.ts), with auth.gen.ts when the server has auth, and stops it on SIGTERM/SIGINT: new calls refused
 * (503), calls in flight finished for the grace period, the rest cancelled, the user's teardown run, exit 0.
 */
import type { Server } from 'node:http';
import type { AuthInfo, McpRequestContext, McpServerFactory } from '@modelcontextprotocol/server';
import { StartupError } from './handler.gen.js';
import { createFastPath, type FastPath } from './http-fast.gen.js';
import type { ListenStreams, ListenLimits } from './listen-streams.gen.js';
import { startHttp } from './http-server.gen.js';
import { toolsetNames, toolsIn } from './register.gen.js';
import type { TaskHooks } from './hooks.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import type { RuntimeModules } from './start.gen.js';
import type { Changes, IncomingView, Lazy, PageServer, Readiness, ServeHttp, Startup } from './startup.gen.js';
import type { OpenedServer } from './start.gen.js';

/** What http.gen.ts needs to protect the MCP endpoint (auth.gen.ts, in projects with auth). */
export interface HttpAuth {
  /** Path of the protected-resource metadata document, e.g. `/.well-known/oauth-protected-resource/mcp`. */
  readonly metadataPath: string;
  /**
   * The metadata document. `origin` is where the server listens (`http://<bind host>:<port>`), the public origin
   * when none is configured; public URLs never come from a request's headers, which any client chooses.
   */
  metadata(origin: string): Record<string, unknown>;
  /**
   * The caller's verified auth info, or the 401/500 response to send instead (its challenge built as `metadata` says).
   */
  authenticate(req: IncomingView, origin: string): Promise<{ authInfo: AuthInfo } | { response: Response }>;
}

/** The legacy adapter (legacy-http.gen.ts, in projects with `legacy: serve`): 2025-11-25 clients and their sessions. */
export interface LegacyAdapter {
  fetch(request: Request, options: { readonly parsedBody?: unknown; readonly authInfo?: AuthInfo }): Promise<Response>;
}

/** auth.gen.ts's entry: the authorization the manifest asks for on the MCP endpoint at `path`. */
export type HttpAuthFactory = (startup: Startup, path: string) => Promise<HttpAuth>;

declare module './start.gen.js' {
  interface RuntimeModules {
    /** legacy-http.gen.ts, with `legacy: serve`. */
    readonly legacyHttp?: Lazy<{
      readonly LegacySessions: new (
        factory: McpServerFactory,
        limits: { maxSessions: number; idleMs: number },
        log: (message: string) => void,
        now: () => number,
        attach: Changes['attach'] | null,
      ) => LegacyAdapter;
      readonly defaultLegacyLimits: { maxSessions: number; idleMs: number };
    }>;
    /** auth.gen.ts, with bearer or OAuth authorization. */
    readonly auth?: Lazy<{ readonly httpAuth: HttpAuthFactory }>;
  }
}

/** Where and how the HTTP transport listens. */
export interface HttpOptions {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  /** Browser origins allowed besides loopback ones, compared exactly. */
  readonly allowedOrigins: readonly string[];
  /** legacy-http.gen.ts with `legacy: serve`; without it, 2025-11-25 clients are rejected. */
  readonly legacy: RuntimeModules['legacyHttp'];
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes?: number;
  /** Requests served at once; more get 503. */
  readonly maxConcurrentCalls: number;
  /** Request body bytes held at once; more get 503. */
  readonly maxBufferedBytes: number;
  /** `subscriptions/listen` streams: caps apart from call slots, keep-alives, idle close (listen-streams.gen.ts). */
  readonly listen: ListenLimits;
  readonly serverInfo: ConstructorParameters<typeof ListenStreams>[1];
  /** Every revision the server answers (registry discover.supportedVersions): -32022 names them. */
  readonly supportedVersions: readonly string[];
  /** What `/readyz` reports; null: no `/healthz` and `/readyz` (MCP_GEN_HEALTH=off). */
  readonly readiness: Readiness | null;
  /** With `notifications`: the bus `subscriptions/listen` streams and legacy sessions hear (notify.gen.ts). */
  readonly changes?: Changes | null;
  /** With task tools: `notifications/tasks` on listen streams (tasks-listen.gen.ts). */
  readonly tasks?: TaskHooks | null;
  /** The toolsets an `Mcp-Toolsets` header may name (and `all`). */
  readonly toolsets?: readonly string[];
  /** With approvals: the approval pages (approval-page.gen.ts), served under `/approvals/` on this origin. */
  readonly pages?: PageServer | null;
}

/**
 * A running HTTP transport; `drain` refuses new calls, waits up to `graceMs` for calls in flight, cancels the rest, and
 * closes.
 */
export interface HttpServer {
  readonly server: Server;
  drain(graceMs: number): Promise<void>;
}

/**
 * The tool a modern HTTP `tools/call` request names, or undefined for any
 * other request. The SDK checks the Mcp-Method and Mcp-Name headers against
 * the body before it calls the factory, so the server built for that request
 * needs only that tool: every further tool registered is work repeated on
 * every request. A name that is not plainly one of ours (absent, encoded,
 * unknown) gets every tool, so the SDK answers exactly as it would otherwise.
 */
export function calledTool(registry: RegistrySpec, ctx: McpRequestContext | undefined): string | undefined {
  const headers = ctx?.era === 'modern' ? ctx.requestInfo?.headers : undefined;
  if (headers === undefined || headers.get('mcp-method')?.trim() !== 'tools/call') return undefined;
  const name = headers.get('mcp-name')?.trim();
  return registry.tools.some((tool) => tool.name === name) ? name : undefined;
}

/** The tools a narrowing admits (narrowingOf in http-request.gen.ts): those every `;` group of toolsets admits. */
export function narrowedTools(registry: RegistrySpec, narrowing: string): Set<string> {
  const groups = narrowing.split(';').map((group) => toolsIn(registry, toolsetNames(group)));
  return new Set([...(groups[0] ?? [])].filter((name) => groups.every((group) => group.has(name))));
}

/** The registry's HTTP transport, or the defaults of one (a server served only through `fetch`). */
export const httpSpec = (registry: RegistrySpec): NonNullable<RegistrySpec['transports']['http']> =>
  registry.transports.http ?? {
    host: '127.0.0.1',
    port: 3000,
    path: '/mcp',
    allowedOrigins: [],
    maxConcurrentCalls: 100,
    maxBufferedBytes: 16 * 1024 * 1024,
    shutdownGraceMs: 10_000,
    maxListenStreams: 1000,
    maxListenStreamsPerPrincipal: 10,
    listenKeepAliveMs: 15_000,
    listenIdleMs: 600_000,
  };

/** What both front ends serve (http-server.gen.ts, http-fetch.gen.ts): the factory, options, auth and fast path. */
export interface EndpointParts {
  readonly factory: McpServerFactory;
  readonly options: HttpOptions;
  readonly auth: HttpAuth | null;
  readonly fast: FastPath | null;
}

/** The endpoint's parts for `opened`, listening (for node:http) on `host` and `port`. */
export async function endpointParts(opened: OpenedServer, host: string, port: number): Promise<EndpointParts> {
  const { startup, build, changes, tasks, pages } = opened;
  const { registry, modules, log, environment, readiness, telemetry } = startup;
  const http = httpSpec(registry);
  const auth = modules.auth === undefined ? null : await (await modules.auth()).httpAuth(startup, http.path);
  // MCP_GEN_HTTP_FAST_PATH=off serves every request through the SDK's per-request path.
  const fast =
    environment.MCP_GEN_HTTP_FAST_PATH === 'off' ? null : createFastPath(registry, () => build(), log, telemetry);
  const factory: McpServerFactory = (ctx) => {
    // The endpoint writes the header the factory reads, for both eras (narrowingOf, forLegacy in http-request.gen.ts).
    const narrowing = ctx?.requestInfo?.headers.get('mcp-toolsets') ?? null;
    const server = build(
      calledTool(registry, ctx),
      narrowing === null ? undefined : narrowedTools(registry, narrowing),
    );
    return telemetry === null ? server : telemetry.instrument(server);
  };
  const options: HttpOptions = {
    ...http,
    host,
    port,
    listen: {
      maxStreams: http.maxListenStreams,
      maxStreamsPerPrincipal: http.maxListenStreamsPerPrincipal,
      keepAliveMs: http.listenKeepAliveMs,
      idleMs: http.listenIdleMs,
    },
    serverInfo: registry.discover._meta['io.modelcontextprotocol/serverInfo'],
    supportedVersions: registry.discover.supportedVersions,
    legacy: modules.legacyHttp,
    changes,
    tasks,
    // MCP_GEN_HEALTH=off: no /healthz and /readyz (both paths then answer 404, as any unknown path).
    readiness: environment.MCP_GEN_HEALTH === 'off' ? null : readiness,
    toolsets: registry.selection.toolsets.map((t) => t.name),
    pages,
  };
  return { factory, options, auth, fast };
}

/**
 * Serves the registry's HTTP transport with `--host` and `--port` applied (with auth.gen.ts when the server has auth),
 * and logs where it listens.
 */
export const serveHttp: ServeHttp = async (opened, values) => {
  const { registry } = opened.startup;
  const http = httpSpec(registry);
  const host = values.host ?? http.host;
  const port = values.port === undefined ? http.port : /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(`--port must be a port number, got "${values.port}"`);
  // Without a configured public URL, bearer metadata names where the server listens; on a wildcard address
  // that is no address a client can use.
  if (registry.auth.type === 'bearer' && registry.auth.resource === null && ['0.0.0.0', '::', '[::]'].includes(host)) {
    throw new StartupError(
      `bearer auth on the wildcard host "${host}" needs auth.resource, the public URL of the MCP endpoint (e.g. ` +
        `https://mcp.example.com${http.path}); the metadata and challenges advertise it`,
    );
  }
  const { factory, options, auth, fast } = await endpointParts(opened, host, port);
  const running = await startHttp(factory, options, auth, opened.startup.log, fast);
  const { log, lifecycle } = opened.startup;
  const stop = (signal: string): void => {
    log(`${registry.server.name}: ${signal}, finishing calls in flight (at most ${http.shutdownGraceMs} ms)`);
    // The user's teardown (src/setup.ts) runs once every call is answered: handlers may still use its services.
    running.drain(http.shutdownGraceMs).then(
      () => lifecycle.stop().then((code) => process.exit(code)),
      (error: unknown) => {
        log(`http: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  // Before saying where it listens: whoever waits for that line may signal at once.
  process.once('SIGTERM', stop).once('SIGINT', stop);
  const address = running.server.address();
  const shown = typeof address === 'object' && address !== null ? `${host}:${address.port}` : `${host}:${port}`;
  log(`${registry.server.name} listening on http://${shown}${http.path}`);
};
