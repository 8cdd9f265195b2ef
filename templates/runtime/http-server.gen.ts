/**
 * The HTTP server of http.gen.ts: one POST endpoint on node:http, without a framework, in front of the endpoint of
 * http-endpoint.gen.ts (which http-fetch.gen.ts serves as a web fetch handler too). Probes are answered outside the
 * caps; a request over a cap is refused before its body is read; a client that goes away aborts its call's signal;
 * `drain` refuses new calls, lets calls in flight finish for the grace period and cancels the rest.
 */
import { createServer } from 'node:http';
import { localhostAllowedHostnames, type McpServerFactory } from '@modelcontextprotocol/server';
import { openEndpoint } from './http-endpoint.gen.js';
import type { FastPath } from './http-fast.gen.js';
import { bracketed, hostnameOf, jsonError, send } from './http-request.gen.js';
import type { HttpAuth, HttpOptions, HttpServer } from './http.gen.js';

/** Serves `factory` over Streamable HTTP; resolves once listening. */
export async function startHttp(
  factory: McpServerFactory,
  options: HttpOptions,
  auth: HttpAuth | null,
  log: (message: string) => void,
  fast: FastPath | null = null,
): Promise<HttpServer> {
  const bindHost = bracketed(options.host);
  const hosts = new Set([...localhostAllowedHostnames(), hostnameOf(bindHost) ?? bindHost.toLowerCase()]);
  const endpoint = await openEndpoint(factory, options, auth, log, fast, hosts);
  // Where the server listens, set once it does (port 0 picks the port): requests are built on it, and it is the
  // public origin when none is configured. Nothing a client sends (Host, X-Forwarded-*) ever becomes a URL.
  let origin = '';

  const server = createServer((req, res) => {
    // RFC 9112 §3.2: a request with two Host lines is 400. Node keeps the first; a proxy in front may route by another.
    if ((req.headersDistinct.host?.length ?? 0) > 1) {
      send(res, jsonError(400, -32000, 'Bad Request: more than one Host header', { connection: 'close' })).catch(() =>
        res.destroy(),
      );
      return;
    }
    // Probes first: outside the caps (a busy instance is still alive), and answered while draining.
    const probed = endpoint.probe(req);
    if (probed !== null) {
      probed.then((response) => send(res, response)).catch(() => res.destroy());
      return;
    }
    // Over a cap or shutting down: refused before the body is read; Node discards the unread body without holding it.
    const call = endpoint.admit(Number(req.headers['content-length'] ?? 0) || 0);
    if (call instanceof Response) {
      send(res, call).catch(() => res.destroy());
      return;
    }
    res.once('close', () => {
      call.end();
      if (!res.writableFinished) call.cancel.abort();
    });
    endpoint
      .answer(req, call, origin)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        log(`http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        // The error answer itself may fail (the client is gone); that must not become an unhandled rejection.
        if (!res.headersSent) send(res, jsonError(500, -32603, 'Internal error')).catch(() => res.destroy());
        else res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      origin = `http://${bindHost}:${typeof address === 'object' && address !== null ? address.port : options.port}`;
      options.pages?.attach(origin);
      resolve();
    });
  });
  const drain = async (graceMs: number): Promise<void> => {
    endpoint.startDrain();
    // The listener stays open while calls finish: meanwhile /readyz answers 503 and a new request 503 with
    // Retry-After, rather than a refused connection while the load balancer still sends traffic here.
    server.closeIdleConnections();
    const deadline = Date.now() + graceMs;
    const { inflight, streaming } = endpoint;
    while (inflight.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const call of inflight) call.cancel.abort();
    // Cancelled calls are answered 503 at once, ended listen streams with their result; give those a moment.
    for (let i = 0; i < 100 && inflight.size + streaming.size > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    // Every call is answered by now; closing the SDK's per-request servers may wait on abandoned work: a second at most
    await Promise.race([
      Promise.all([closed, endpoint.close()]),
      new Promise((resolve) => setTimeout(resolve, 1000).unref()),
    ]);
  };
  return { server, drain };
}
