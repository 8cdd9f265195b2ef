/**
 * What a server's start-up hands its optional modules (Startup: the registry, the modules, the environment, the
 * lifecycle, readiness and telemetry), the change bus, and what the transports' entries take. Types only.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { McpServer, Server, ServerEventBus } from '@modelcontextprotocol/server';
import type { Notify } from './handler.gen.js';
import type { RegistrySpec } from './spec.gen.js';
import type { OpenedServer, RuntimeModules } from './start.gen.js';

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
  /** A Worker's env (its bindings); empty under Node. */
  readonly platform: Readonly<Record<string, unknown>>;
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
 * http.gen.ts's entry: serves HTTP for `opened` (its `build` makes the server for each request: `onlyTool`, the one
 * tool it calls; `narrow`, the tools of the toolsets the request names), with the command line's host and port.
 */
export type ServeHttp = (opened: OpenedServer, options: StartOptions) => Promise<void>;

/** approval-page.gen.ts: pages under `/approvals/`; `attach` names the HTTP origin the links point to. */
export type PageServer = {
  attach(o: string): void;
  serve(r: IncomingView, p: string, o: string): Promise<Response>;
};

/** A request as the HTTP endpoint reads it: node:http's IncomingMessage, or a web Request (http-fetch.gen.ts). */
export interface IncomingView extends AsyncIterable<Uint8Array> {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** One event on the change bus: JSON, named by `kind` (notify.gen.ts documents the bus). */
export type BusEvent = { readonly kind: string; readonly [field: string]: unknown };

/** The change bus, of this process or of every instance (notify.gen.ts's header has its contract). */
export interface ChangeBus {
  publish(event: BusEvent): void;
  listen(filter: (event: BusEvent) => boolean, listener: (event: BusEvent) => void): () => void;
  /** Resolves once what was published has left (a Worker waits for it). */
  settled?(): Promise<void>;
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
