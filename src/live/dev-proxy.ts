/**
 * The fixed loopback address of `mcp-gen dev`. Each build's server listens on a port of its own; this listener
 * forwards every request to the newest one that said it listens, so a restart is a switch, not a gap: the next
 * server starts while the last one answers, requests already forwarded finish on the server that took them (it
 * drains on SIGTERM), and a client calling during a rebuild is answered by one or the other. Request and answer
 * bodies stream through untouched (listen streams, SSE); the Host header is kept, so the server's Host and Origin
 * rules see what the client sent.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';

export interface DevProxy {
  /** `http://127.0.0.1:<port>`, the origin clients use. */
  readonly origin: string;
  /** Sends the requests that come from now on to the server on `port` (of 127.0.0.1). */
  target(port: number): void;
  close(): Promise<void>;
}

/** A JSON-RPC error as the generated server writes one, for what the proxy itself must refuse. */
function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
  res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '1', 'cache-control': 'no-store' });
  res.end(body);
}

function forward(req: IncomingMessage, res: ServerResponse, port: number): void {
  const upstream = request(
    { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
      // A stream the client ends (a closed SSE reader) must end the server's side too.
      res.once('close', () => answer.destroy());
    },
  );
  upstream.once('error', () => refuse(res, 502, 'mcp-gen dev: the server stopped while answering; call again'));
  req.pipe(upstream);
}

/** Listens on 127.0.0.1:`port`; until the first `target`, every request is answered 503 with Retry-After. */
export function startDevProxy(port: number): Promise<DevProxy> {
  let current: number | null = null;
  const server: Server = createServer((req, res) => {
    if (current === null) refuse(res, 503, 'mcp-gen dev: no server yet; the terminal shows the build');
    else forward(req, res, current);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : port;
      resolve({
        origin: `http://127.0.0.1:${bound}`,
        target: (next) => {
          current = next;
        },
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
