/**
 * The server as a web fetch handler, `fetch(request, env?) -> Response`, for Cloudflare Workers and any runtime with
 * the Fetch API: the same endpoint http-server.gen.ts serves on node:http (http-endpoint.gen.ts), so the Host and
 * Origin rules, auth, the caps and every answer are the same. The server opens on the first request: `env`'s string
 * values are its environment (process.env when there is no env) and `env` itself the platform's bindings (a Durable
 * Object namespace); a start that fails answers 503 and the next request tries again.
 *
 * Host names: the localhost ones, and those in MCP_GEN_HOSTS (comma list), the names a deployment answers on. The
 * origin of metadata and approval links is the request's own on such a host. Without auth, MCP_GEN_HOSTS must stay
 * empty: as `--host` on node:http, a server without authorization answers only on this machine.
 */
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { running } from './call.gen.js';
import { StartupError } from './handler.gen.js';
import { openEndpoint, type AdmittedCall, type Endpoint } from './http-endpoint.gen.js';
import type { FastAnswer } from './http-fast.gen.js';
import { hostnameOf, jsonError } from './http-request.gen.js';
import { endpointParts } from './http.gen.js';
import { logToStderr } from './log.gen.js';
import { openServer, type ServerDefinition } from './start.gen.js';
import type { IncomingView } from './startup.gen.js';

/** What the handler uses of a Worker's execution context: work it waits for after the answer (a task's run). */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** A web fetch handler: `env` and `context` are a Worker's (vars, secrets, bindings), absent elsewhere. */
export type FetchHandler = (
  request: Request,
  env?: Readonly<Record<string, unknown>>,
  context?: WorkerContext,
) => Promise<Response>;

interface Serving {
  readonly endpoint: Endpoint;
  readonly attach: ((origin: string) => void) | null;
  /** The hosts whose origin approval links may name: those MCP_GEN_HOSTS names, else the loopback ones. */
  readonly hosts: ReadonlySet<string>;
  readonly settled: () => Promise<void>;
}

/**
 * A Worker's vars and secrets as text (bindings are objects): a var written as a JSON number or boolean
 * (`"X_READ_ONLY": 1`) is the text a shell would hold, not left out, which would silently unmount read-only.
 */
function stringsOf(env: Readonly<Record<string, unknown>>): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).flatMap(([name, value]) =>
      ['string', 'number', 'boolean'].includes(typeof value) ? [[name, String(value)]] : [],
    ),
  );
}

async function open(
  definition: ServerDefinition,
  env: Readonly<Record<string, unknown>> | undefined,
): Promise<Serving> {
  const environment = env === undefined ? process.env : stringsOf(env);
  // A toolset list or mount written as JSON (["issues"]) is refused, not read as unset: the default tools, writes too.
  const { toolsetsEnv, readOnlyEnv } = definition.registry.selection;
  for (const name of [toolsetsEnv, readOnlyEnv])
    if (typeof env?.[name] === 'object') throw new StartupError(`${name} must be text, not a JSON value`);
  const named = (environment.MCP_GEN_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const hosts = new Set(localhostAllowedHostnames());
  for (const host of named) {
    const hostname = hostnameOf(host);
    if (hostname === null) throw new StartupError(`MCP_GEN_HOSTS names "${host}", which is no host name`);
    hosts.add(hostname);
  }
  if (named.length > 0 && definition.registry.auth.type === 'none')
    throw new StartupError('MCP_GEN_HOSTS is set but the server has no authorization; set auth in the manifest');
  const opened = await openServer(definition, environment, 'tcp', named.length === 0, env ?? {});
  const { factory, options, auth, fast } = await endpointParts(opened, '127.0.0.1', 0);
  const { log } = opened.startup;
  const endpoint = await openEndpoint(factory, options, auth, log, fast, hosts);
  opened.startup.readiness.started = true;
  const pages = options.pages ?? null;
  // A deployment with names of its own never takes a loopback request's origin for its links: whoever sends the
  // first request would choose it.
  const linked = named.length === 0 ? hosts : new Set(named.map((host) => hostnameOf(host) ?? ''));
  return {
    endpoint,
    attach: pages === null ? null : (origin) => pages.attach(origin),
    hosts: linked,
    // A task the request started runs on after the answer, a handler whose caller left still runs, and a change it
    // published may still be on its way.
    settled: async () =>
      void (await Promise.allSettled([options.tasks?.settled(), options.changes?.bus.settled?.(), ...running])),
  };
}

/** The request as the endpoint reads it; Host is the URL's when the runtime leaves the header out. */
function viewOf(request: Request, url: URL): IncomingView {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host ??= url.host;
  const body = request.body;
  return {
    method: request.method,
    url: `${url.pathname}${url.search}`,
    headers,
    async *[Symbol.asyncIterator]() {
      if (body === null) return;
      const reader = body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
    },
  };
}

/** The fast path's answer as a Response: the same status, header and bytes. */
const responseOf = (answer: Response | FastAnswer): Response =>
  answer instanceof Response
    ? answer
    : new Response(answer.json, {
        status: answer.status,
        headers: answer.json === null ? {} : { 'content-type': 'application/json' },
      });

/**
 * `response`, counted against the caps until its body has been sent or abandoned: an event stream (a listen stream,
 * progress) runs on after the answer; any other body is complete, and the call ends with it.
 */
function counted(response: Response, call: AdmittedCall): Response {
  if (response.body === null || response.headers.get('content-type')?.startsWith('text/event-stream') !== true) {
    call.end();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }) as const);
      if (chunk.done) {
        call.end();
        controller.close();
      } else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      call.end();
      call.cancel.abort();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The fetch handler of `definition`'s server. */
export function serveFetch(definition: ServerDefinition): FetchHandler {
  let serving: Promise<Serving> | null = null;
  let attached = false;
  return async (request, env, context) => {
    serving ??= open(definition, env).catch((error: unknown) => {
      serving = null;
      throw error;
    });
    let ready: Serving;
    try {
      ready = await serving;
    } catch (error) {
      const detail =
        error instanceof StartupError
          ? error.message
          : error instanceof Error
            ? (error.stack ?? error.message)
            : String(error);
      logToStderr(`${definition.registry.server.name}: failed to start: ${detail}`);
      return jsonError(503, -32000, 'Server unavailable: it failed to start', { 'retry-after': '1' });
    }
    const url = new URL(request.url);
    const view = viewOf(request, url);
    const { endpoint } = ready;
    const probed = endpoint.probe(view);
    if (probed !== null) return probed;
    const call = endpoint.admit(Number(request.headers.get('content-length') ?? 0) || 0);
    if (call instanceof Response) return call;
    // Used only once the Host rule has passed (the endpoint checks it first): then it names this deployment.
    const origin = `${url.protocol}//${view.headers.host}`;
    if (!attached && ready.attach !== null && ready.hosts.has(hostnameOf(view.headers.host ?? '') ?? '')) {
      attached = true;
      ready.attach(origin);
    }
    // A client that goes away aborts the call, as on node:http.
    request.signal?.addEventListener('abort', () => call.cancel.abort(), { once: true });
    try {
      const response = counted(responseOf(await endpoint.answer(view, call, origin)), call);
      // The isolate stays until the request's work after the answer is done.
      if (context !== undefined) context.waitUntil(ready.settled());
      return response;
    } catch (error) {
      call.end();
      logToStderr(`http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return jsonError(500, -32603, 'Internal error');
    }
  };
}
