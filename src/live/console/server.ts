/**
 * The console's HTTP side, served by `mcp-gen dev` on loopback only: the page shell and its assets, the state
 * (`GET /api/state`, and `GET /api/events` telling the page when it changed), and the requests the page makes
 * (`POST /api/call`, `/api/answer`, `/api/read`, `/api/prompt`, `/api/complete`). Every answer carries the
 * console's CSP. A request must name the console's own host (DNS rebinding); a POST must carry the page's token
 * and, when the browser sends one, the console's own Origin, so no other site can make the console call a tool.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ConsoleAsset } from '../../load/index.js';
import { isRecord } from '../../util/guards.js';
import { completeArgument } from '../call.js';
import type { Answer } from '../session.js';
import { type ConsoleCalls, promptRequest, readRequest, type Step, toolRequest } from './calls.js';
import { copiesOf } from './copy-as.js';
import { consoleHeaders, consoleShell } from './page.js';
import type { ConsoleState } from './state.js';

/** The values a server offers for a field being typed. */
interface Completion {
  readonly kind: 'completion';
  readonly values: readonly string[];
}

export interface ConsoleOptions {
  readonly port: number;
  readonly assets: ReadonlyMap<string, ConsoleAsset>;
  readonly calls: ConsoleCalls;
  /** The state of the current version (the caller keeps it until the next). */
  readonly state: () => Promise<ConsoleState>;
  /** The MCP endpoint, for "copy as curl"; `bearer` when requests need a token. */
  readonly serverUrl: () => string;
  readonly bearer: () => boolean;
}

export interface RunningConsole {
  readonly url: string;
  /** Tells every open page that the state changed. */
  readonly changed: (version: number) => void;
  readonly close: () => Promise<void>;
}

const maxBodyBytes = 1024 * 1024;
const heartbeatMs = 15_000;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...consoleHeaders, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

const refuse = (res: ServerResponse, status: number, message: string): void =>
  sendJson(res, status, { kind: 'error', message, code: null } satisfies Step);

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new RangeError('the request body is larger than 1 MiB');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function answerOf(value: unknown): Answer | null {
  if (!isRecord(value)) return null;
  if (value.action === 'decline') return { action: 'decline' };
  if (value.action === 'accept' && isRecord(value.content))
    return { action: 'accept', content: value.content as Extract<Answer, { action: 'accept' }>['content'] };
  return null;
}

export function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const token = randomBytes(24).toString('base64url');
  const pages = new Set<ServerResponse>();
  let origins = new Set<string>();
  let hosts = new Set<string>();

  const tokenMatches = (given: string | string[] | undefined): boolean => {
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  /** The step of one POST, from its JSON body. */
  async function post(route: string, body: unknown): Promise<Step | Completion | null> {
    if (!isRecord(body)) return null;
    const url = options.serverUrl();
    const { calls } = options;
    const bearer = options.bearer();
    if (route === '/api/call' && typeof body.name === 'string') {
      const args = isRecord(body.arguments) ? body.arguments : {};
      const copies = copiesOf(url, 'tools/call', { name: body.name, arguments: args }, bearer);
      return calls.start(toolRequest(body.name, args, copies));
    }
    if (route === '/api/answer' && typeof body.call === 'string') {
      const answer = answerOf(body.answer);
      return answer === null ? null : calls.answer(body.call, answer);
    }
    if (route === '/api/read' && typeof body.uri === 'string')
      return calls.start(readRequest(body.uri, copiesOf(url, 'resources/read', { uri: body.uri }, bearer)));
    if (route === '/api/prompt' && typeof body.name === 'string') {
      const args = textValues(body.arguments);
      if (args === null) return null;
      const copies = copiesOf(url, 'prompts/get', { name: body.name, arguments: args }, bearer);
      return calls.start(promptRequest(body.name, args, copies));
    }
    if (route === '/api/complete' && isRecord(body.ref) && isRecord(body.argument)) return complete(body);
    return null;
  }

  /** `completion/complete` for a field the page is typing in: `{ kind: 'completion', values }`. */
  async function complete(body: Readonly<Record<string, unknown>>): Promise<Completion | Step | null> {
    const { ref, argument } = body as { ref: Record<string, unknown>; argument: Record<string, unknown> };
    const target =
      ref.type === 'ref/resource' && typeof ref.uri === 'string'
        ? ({ type: 'ref/resource', uri: ref.uri } as const)
        : ref.type === 'ref/prompt' && typeof ref.name === 'string'
          ? ({ type: 'ref/prompt', name: ref.name } as const)
          : null;
    if (target === null || typeof argument.name !== 'string' || typeof argument.value !== 'string') return null;
    const others = textValues(body.context);
    if (others === null) return null;
    try {
      const values = await completeArgument(
        options.calls.target(),
        target,
        { name: argument.name, value: argument.value },
        others,
      );
      return { kind: 'completion', values };
    } catch (error) {
      return { kind: 'error', message: error instanceof Error ? error.message : String(error), code: null };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hosts.has(req.headers.host ?? '')) return refuse(res, 421, 'this console is served on another address');
    // A target the URL parser refuses (`//[`) is the client's mistake: 400, not 500.
    if (!URL.canParse(req.url ?? '/', 'http://console')) return refuse(res, 400, 'not a path of this console');
    const route = new URL(req.url ?? '/', 'http://console').pathname;
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (route === '/') return send(res, 200, 'text/html; charset=utf-8', consoleShell(token));
      const asset = options.assets.get(route);
      if (asset !== undefined) return send(res, 200, asset.type, asset.body);
      if (route === '/api/state') return sendJson(res, 200, await options.state());
      if (route === '/api/events') {
        res.writeHead(200, { ...consoleHeaders, 'content-type': 'text/event-stream', connection: 'keep-alive' });
        res.write(': connected\n\n');
        pages.add(res);
        req.on('close', () => pages.delete(res));
        return;
      }
      return refuse(res, 404, 'no such page');
    }
    if (req.method !== 'POST') return refuse(res, 405, 'GET or POST only');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return refuse(res, 403, 'requests come from the console only');
    if (!tokenMatches(req.headers['x-mcp-gen-console-token']))
      return refuse(res, 403, 'the console token is missing or wrong; reload the page');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return refuse(res, 415, 'send JSON (content-type: application/json)');
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      return refuse(res, error instanceof RangeError ? 413 : 400, (error as Error).message);
    }
    const step = await post(route, body);
    if (step === null) return refuse(res, 400, `${route} does not take that body`);
    sendJson(res, 200, step);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, error instanceof Error ? error.message : String(error));
      else res.end();
    });
  });
  const heartbeat = setInterval(() => {
    for (const page of pages) page.write(': alive\n\n');
  }, heartbeatMs);
  heartbeat.unref();

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
      origins = new Set([...hosts].map((host) => `http://${host}`));
      resolve({
        url: `http://127.0.0.1:${port}/`,
        changed: (version) => {
          for (const page of pages) page.write(`event: state\ndata: ${JSON.stringify({ version })}\n\n`);
        },
        close: () =>
          new Promise((done) => {
            clearInterval(heartbeat);
            for (const page of pages) page.end();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/**
 * Prompt arguments and completion context as the text MCP carries: strings, numbers and booleans as their text; null
 * (the request is refused, 400) when a value is anything else, which `String()` could not turn into text safely.
 */
function textValues(value: unknown): Record<string, string> | null {
  const given = isRecord(value) ? value : {};
  const entries = Object.entries(given);
  if (entries.some(([, v]) => typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')) return null;
  return Object.fromEntries(entries.map(([key, v]) => [key, String(v)]));
}
