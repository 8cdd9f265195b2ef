/**
 * stdio: newline-delimited JSON-RPC, stdout carrying only protocol messages, the process exiting when stdin closes. The
 * envelope filter answers lines the SDK would drop silently (bad JSON, `id: null`, a wrong `jsonrpc`, batches: -32700
 * or -32600, with `id: null` for an unusable id), so a waiting client never hangs; the version guard then checks each
 * request's `_meta` envelope and protocol version.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { JSONRPCMessage, McpServerFactory, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Lifecycle } from './startup.gen.js';

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

/**
 * Splits stdin into lines and forwards the good ones; `answer` writes the reply to a rejected line. A character split
 * between chunks is decoded whole; a line over the cap is answered once, then dropped up to its newline.
 */
export class EnvelopeFilter extends Transform {
  private pending = '';
  private readonly decoder = new StringDecoder('utf8');
  private dropping = false;

  constructor(private readonly answer: (text: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += this.decoder.write(chunk);
    if (this.dropping) {
      const end = this.pending.indexOf('\n');
      this.dropping = end < 0;
      this.pending = end < 0 ? '' : this.pending.slice(end + 1);
    }
    for (let newline = this.pending.indexOf('\n'); newline >= 0; newline = this.pending.indexOf('\n')) {
      this.forward(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
    }
    if (Buffer.byteLength(this.pending, 'utf8') > maxLineBytes) {
      this.answer(errorLine(null, -32600, 'Invalid Request: message too large'));
      this.pending = '';
      this.dropping = true;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    const rest = this.pending + this.decoder.end();
    if (!this.dropping && rest.trim() !== '') this.forward(rest);
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
 * pinned to an era). The first request sets the era: a 2026-07-28 envelope modern, `initialize` legacy. On a modern
 * connection a request without a valid envelope is answered -32602 here, or the SDK would re-pin to 2025 and break
 * later MRTR calls.
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
        // Before the era is known, only `initialize` may come without an envelope: anything else is invalid in both.
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
 * Serves `factory` on stdin/stdout until stdin closes or a SIGTERM/SIGINT comes; then `lifecycle` stops and the process
 * exits.
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
  // Once stdin ends the SDK drops every call: exit within a second of teardown, even if a handler ignoring its signal
  // holds the loop.
  const stop = (graceMs: number) => (): void =>
    void (lifecycle?.stop() ?? Promise.resolve(0)).then((code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), graceMs).unref();
    });
  input.once('end', stop(1000));
  if (lifecycle !== undefined) process.once('SIGTERM', stop(0)).once('SIGINT', stop(0));
  return serveStdio(factory, { legacy, transport, onerror: (error) => log(`stdio: ${error.message}`) });
}
