/**
 * A small raw JSON-RPC client for the contract tests: it starts the compiled
 * server as a child process and talks to it over stdio lines or HTTP, so the
 * tests see the wire exactly (the SDK client hides result types, cache fields
 * and error codes). Every wait is bounded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The compiled entry point, next to this compiled test (dist/test -> dist/src). */
export const entry = fileURLToPath(new URL('../src/main.js', import.meta.url));

/** The `_meta` envelope of a 2026-07-28 request. */
export function envelope(version = '2026-07-28', capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'contract-test', version: '1.0.0' },
  };
}

export type Message = Record<string, any>;

/** A server process spoken to over stdio. */
export class StdioServer {
  readonly lines: string[] = [];
  stderr = '';
  /** Why the process is gone (exit code or signal, then its stderr), once it is; null while it runs. */
  exited: string | null = null;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters = new Map<unknown, { resolve: (message: Message) => void; reject: (e: Error) => void }>();

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [entry, '--transport', 'stdio'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    // A write after the process died fails with EPIPE; the exit below already says why, with the server's stderr.
    this.child.stdin.on('error', () => undefined);
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      const message = JSON.parse(line) as Message;
      this.waiters.get(message.id)?.resolve(message);
    });
    // 'close' comes after stderr has been read to its end: every waiting request fails at once with all of it.
    this.child.once('close', (code, signal) => {
      this.exited = `the server exited (${signal ?? `code ${code}`}); its stderr:\n${this.stderr}`;
      for (const waiter of this.waiters.values()) waiter.reject(new Error(this.exited));
      this.waiters.clear();
    });
  }

  /** Sends one line and waits for the answer with `id` (at most `timeoutMs`); fails at once when the server exits. */
  request(line: string | Message, id: unknown, timeoutMs = 10_000): Promise<Message> {
    if (this.exited !== null) return Promise.reject(new Error(this.exited));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no answer with id ${JSON.stringify(id)} within ${timeoutMs} ms; stderr: ${this.stderr}`)),
        timeoutMs,
      );
      const settle = () => {
        clearTimeout(timer);
        this.waiters.delete(id);
      };
      this.waiters.set(id, {
        resolve: (message) => {
          settle();
          resolve(message);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.send(line);
    });
  }

  send(line: string | Message): void {
    this.child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
  }

  /** False once the process has exited. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Closes stdin and waits (bounded) for the process to exit; returns its exit code. */
  close(): Promise<number | null> {
    if (!this.running) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      this.child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
      this.child.stdin.end();
    });
  }
}

/** A server process listening on loopback HTTP with an ephemeral port. */
export class HttpServer {
  url = '';
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;

  private constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [entry, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }

  /** Starts the server and waits (bounded) for the URL it prints on stderr. */
  static start(env: NodeJS.ProcessEnv): Promise<HttpServer> {
    const server = new HttpServer(env);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no listening URL within 15 s; stderr: ${server.stderr}`)),
        15_000,
      );
      server.child.stderr.on('data', (chunk: Buffer) => {
        server.stderr += chunk.toString('utf8');
        const match = /listening on (http:\/\/\S+)/.exec(server.stderr);
        if (match !== null && server.url === '') {
          clearTimeout(timer);
          server.url = match[1] ?? '';
          resolve(server);
        }
      });
      // 'close' comes after stderr has been read to its end.
      server.child.once('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}: ${server.stderr}`));
      });
    });
  }

  /** POSTs `body` with the standard headers for its method, overridden by `headers`. */
  async post(
    body: Message,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; text: string }> {
    const params = (body.params ?? {}) as Message;
    const name =
      typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
    const standard: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': String(body.method),
      ...(name === undefined ? {} : { 'mcp-name': name }),
    };
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { ...standard, ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}
