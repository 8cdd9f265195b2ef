/**
 * stdio: newline-delimited JSON-RPC on stdin/stdout. stdout carries only
 * protocol messages; every diagnostic goes to stderr. The process exits when
 * stdin closes.
 *
 * Two checks sit in front of the SDK's stdio transport. The envelope filter
 * answers lines the SDK would silently drop (bad JSON, `id: null`, a wrong
 * `jsonrpc`, batches), so a client waiting for an answer never hangs: -32700
 * (parse error) or -32600 (invalid request), with `id: null` when the id
 * itself is unusable, as JSON-RPC 2.0 requires. The version guard then checks
 * each request's `_meta` envelope and protocol version. Both live in this one
 * module because every stdio start loads them.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { JSONRPCMessage, McpServerFactory, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** Largest accepted line, in bytes; longer lines are answered -32600 and never parsed. */
export const maxLineBytes = 4 * 1024 * 1024;

function errorLine(id: unknown, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}

/** The answer to one input line that must not reach the SDK, or null when the line is fine. */
export function rejectLine(line: string): string | null {
  if (line.trim() === '') return null;
  if (Buffer.byteLength(line, 'utf8') > maxLineBytes) return errorLine(null, -32600, 'Invalid Request: message too large');
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return errorLine(null, -32700, 'Parse error');
  }
  if (Array.isArray(message)) return errorLine(null, -32600, 'Invalid Request: batches are not supported');
  if (message === null || typeof message !== 'object') return errorLine(null, -32600, 'Invalid Request: expected a JSON-RPC object');
  const m = message as Record<string, unknown>;
  const hasId = 'id' in m;
  // MCP narrows JSON-RPC ids to strings and integers.
  const idUsable = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isSafeInteger(m.id));
  if (hasId && !idUsable) return errorLine(null, -32600, 'Invalid Request: id must be a string or a number');
  const id = hasId ? m.id : null;
  if (m.jsonrpc !== '2.0') return hasId || !('method' in m) ? errorLine(id, -32600, 'Invalid Request: jsonrpc must be "2.0"') : '';
  if ('method' in m && typeof m.method !== 'string') return hasId ? errorLine(id, -32600, 'Invalid Request: method must be a string') : '';
  // MCP params are always by name: an object, never an array.
  if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) return hasId ? errorLine(id, -32600, 'Invalid Request: params must be an object') : '';
  const meta = (m.params as Record<string, unknown> | undefined)?._meta;
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return hasId ? errorLine(id, -32600, 'Invalid Request: _meta must be an object') : '';
  return null;
}

/**
 * Splits stdin into lines and forwards the good ones; `answer` writes the reply
 * to a rejected line (an empty reply means: a malformed notification, dropped
 * without an answer, since notifications are never answered).
 */
export class EnvelopeFilter extends Transform {
  private pending = '';

  constructor(private readonly answer: (text: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString('utf8');
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      this.forward(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    if (Buffer.byteLength(this.pending, 'utf8') > maxLineBytes) {
      this.answer(errorLine(null, -32600, 'Invalid Request: message too large'));
      this.pending = '';
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending.trim() !== '') this.forward(this.pending);
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
 * Answers -32022 to every request whose `_meta` names a well-formed but
 * unsupported protocol version. The SDK checks this only until the connection
 * is pinned to an era; the spec wants it on every request.
 */
export class VersionGuardTransport implements Transport {
  /**
   * Which era this connection speaks, from its first request: a 2026-07-28
   * envelope makes it modern, `initialize` makes it legacy. On a modern
   * connection a request without a valid envelope is answered -32602 here and
   * never reaches the SDK, which would otherwise re-pin the connection to the
   * 2025 era and break later multi round-trip calls.
   */
  private era: 'unknown' | 'modern' | 'legacy' = 'unknown';
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly supported: readonly string[],
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const modern = envelopeOf(message) !== undefined;
      if ('id' in message && 'method' in message) {
        if (this.era === 'unknown') this.era = modern ? 'modern' : message.method === 'initialize' ? 'legacy' : 'unknown';
        // Before the era is known, only `initialize` may come without an envelope: anything else
        // is invalid in both eras and must not make the SDK pin the connection to 2025.
        const problem = this.era === 'legacy' ? undefined : envelopeProblem(message);
        if (problem !== undefined) {
          this.answer({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: problem } } as JSONRPCMessage);
          return;
        }
      } else if ('method' in message && !modern && this.era !== 'legacy') {
        return; // a notification without an envelope outside the 2025 era: invalid, and never answered
      }
      const requested = versionOf(message);
      if (requested !== undefined && 'id' in message && 'method' in message && !this.supported.includes(requested)) {
        this.answer({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32022, message: `Unsupported protocol version: ${requested}`, data: { supported: [...this.supported], requested } },
        } as JSONRPCMessage);
        return;
      }
      this.onmessage?.(message, extra);
    };
  }

  /**
   * Sends an answer of the guard's own. A write that fails (the host stopped
   * reading: EPIPE) is reported like the SDK's own failed writes, through
   * onerror, instead of becoming an unhandled rejection that kills the process.
   */
  private answer(message: JSONRPCMessage): void {
    this.inner.send(message).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function envelopeOf(message: unknown): Record<string, unknown> | undefined {
  const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) && versionKey in meta ? (meta as Record<string, unknown>) : undefined;
}

/** Why a request on a modern connection lacks a valid 2026-07-28 envelope, or undefined when it has one. */
function envelopeProblem(message: unknown): string | undefined {
  const meta = envelopeOf(message);
  if (meta === undefined) return 'Request is missing the required _meta envelope for protocol revision 2026-07-28 (io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)';
  if (typeof meta[versionKey] !== 'string') return 'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/protocolVersion must be a string';
  const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
  if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)) {
    return 'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/clientCapabilities must be an object';
  }
  return undefined;
}

function versionOf(message: unknown): string | undefined {
  const params = (message as { params?: { _meta?: Record<string, unknown> } }).params;
  const version = params?._meta?.[versionKey];
  return typeof version === 'string' ? version : undefined;
}

/** Serves `factory` on stdin/stdout until stdin closes. */
export function startStdio(factory: McpServerFactory, versions: readonly string[], legacy: 'serve' | 'reject', log: (message: string) => void): { close(): Promise<void> } {
  // Malformed lines are answered here, before the SDK, which would drop them without a word.
  const input = process.stdin.pipe(new EnvelopeFilter((text) => process.stdout.write(text)));
  return serveStdio(factory, {
    legacy,
    transport: new VersionGuardTransport(new StdioServerTransport(input, process.stdout), versions),
    onerror: (error) => log(`stdio: ${error.message}`),
  });
}
