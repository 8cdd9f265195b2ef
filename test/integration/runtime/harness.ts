import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { protocolVersion, repoRoot } from '../../support/paths.js';
import { stopChild } from '../../support/processes.js';
import type { Elicitor } from '../../support/servers.js';

// Helpers for the runtime tests: generate a project with the real CLI, compile it with tsc,
// start it as a child process on 127.0.0.1 and talk to it over real HTTP. Nothing here imports
// mcp-gen's sources but its protocol constant: the tests see the generator only through
// bin/mcp-gen.js, as a user does.

export { repoRoot };

/** The protocol revision the generated servers serve. */
export const version = protocolVersion;

/**
 * Generates `manifest` into `.test-out/<name>` with bin/mcp-gen.js,
 * writes `handlers` over the stubs, compiles; returns the entry point.
 */
export function generateAndCompile(manifest: string, name: string, handlers: Readonly<Record<string, string>>): string {
  const dir = path.join(repoRoot, '.test-out', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const generate = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', manifest, '--out', dir],
    { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
  );
  if (generate.status !== 0)
    throw new Error(`mcp-gen generate failed (run npm run build first):\n${generate.stdout}${generate.stderr}`);
  for (const [file, text] of Object.entries(handlers)) writeFileSync(path.join(dir, file), text);
  const tsc = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', path.join(dir, 'tsconfig.json')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
  return path.join(dir, 'dist', 'src', 'main.js');
}

/** A generated server running as a child process. */
export interface RunningServer {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly stderr: () => string;
  stop(): Promise<void>;
}

/**
 * Bounds for a child server on a busy machine (several test runs on two cores): start-up and
 * graceful exit can take seconds there, and each bound only ends a run that truly hangs.
 */
export const limits = { startMs: 60_000, exitMs: 30_000, requestMs: 30_000 } as const;

/** Starts `entry` over HTTP on 127.0.0.1 with an OS-assigned port; resolves with the URL it prints on stderr. */
export function startHttpServer(
  entry: string,
  env: Readonly<Record<string, string>>,
  args: readonly string[] = [],
): Promise<RunningServer> {
  const child = spawn(process.execPath, [entry, '--transport', 'http', '--host', '127.0.0.1', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopChild(child, limits.exitMs);
      reject(new Error(`server did not start within ${limits.startMs / 1000} s; stderr: ${stderr}`));
    }, limits.startMs);
    const early = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}; stderr: ${stderr}`));
    };
    child.once('exit', early);
    let started = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = started ? null : /listening on (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stderr);
      if (match?.[1] === undefined) return;
      // Only this listener goes, and only once: a later stderr line must not remove the 'exit' listener stop()
      // waits on.
      started = true;
      clearTimeout(timer);
      child.off('exit', early);
      resolve({ child, url: new URL(match[1]), stderr: () => stderr, stop: () => stopChild(child, limits.exitMs) });
    });
  });
}

/** Runs `entry` with `args` and `env` until it exits (bounded); for servers that must refuse to start. */
export function runToExit(
  entry: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [entry, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: limits.startMs,
  });
  return { status: result.status, stderr: result.stderr };
}

/** The request `_meta` envelope of protocol 2026-07-28. */
export function envelope(
  capabilities: Record<string, unknown> = { elicitation: { form: {} } },
): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
}

/** One raw HTTP exchange: status, headers and the parsed body (the JSON-RPC message, also out of an SSE stream). */
export interface Exchange {
  readonly status: number;
  readonly headers: Headers;
  /** Wire JSON, loosely typed on purpose: tests assert it field by field or as a whole. */
  readonly body: any;
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(data[data.length - 1]?.slice(6) ?? 'null');
}

/**
 * POSTs one JSON-RPC request with the modern headers (`Mcp-Name` from
 * params.name, or params.uri for a resource) and an optional bearer token.
 */
export async function rpc(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  token?: string,
  id = 1,
): Promise<Exchange> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': method,
  };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  else if (typeof params.uri === 'string') headers['mcp-name'] = params.uri;
  else if (typeof params.taskId === 'string') headers['mcp-name'] = params.taskId;
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: AbortSignal.timeout(limits.requestMs),
  });
  return { status: response.status, headers: response.headers, body: await parseBody(response) };
}

/** GETs `url` without credentials. */
export async function get(url: URL): Promise<Exchange> {
  const response = await fetch(url, { signal: AbortSignal.timeout(limits.requestMs) });
  return { status: response.status, headers: response.headers, body: await parseBody(response) };
}

/**
 * One request to `url` through node:http with `host` as its Host header, as any client may send it (fetch
 * always sends the URL's). With a `body`, it is POSTed as JSON with the modern headers of `tools/list`.
 */
export function requestWithHost(
  url: URL,
  host: string,
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const modern = { 'content-type': 'application/json', 'mcp-protocol-version': version, 'mcp-method': 'tools/list' };
  const headers =
    body === undefined ? { host } : { ...modern, host, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: body === undefined ? 'GET' : 'POST', headers, setHost: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.setTimeout(limits.requestMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

export type { Elicitor } from '../../support/servers.js';

/** The official SDK client, pinned to 2026-07-28, with form elicitation answered by `elicitor`. */
function elicitingClient(elicitor: Elicitor): Client {
  const client = new Client(
    { name: 'runtime-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: version } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    elicitor.seen.push(request.params as Record<string, unknown>);
    elicitor.onAsk?.(request.params as Record<string, unknown>);
    return elicitor.answer;
  });
  return client;
}

/** That client on `node entry` over stdio, with only PATH and `env` in the server's environment. */
export async function connectStdioClient(
  entry: string,
  env: Readonly<Record<string, string>>,
  elicitor: Elicitor,
): Promise<Client> {
  const client = elicitingClient(elicitor);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      env: { PATH: process.env.PATH ?? '', ...env },
    }),
  );
  return client;
}

/** That client over Streamable HTTP at `url`, with `token` as its bearer token when given. */
export async function connectClient(url: URL, token: string | undefined, elicitor: Elicitor): Promise<Client> {
  const client = elicitingClient(elicitor);
  const transport = new StreamableHTTPClientTransport(
    url,
    token === undefined ? {} : { authProvider: { token: async () => token } },
  );
  await client.connect(transport);
  return client;
}
