/**
 * stdio: newline-delimited JSON-RPC on stdin/stdout. stdout carries only
 * protocol messages; every diagnostic goes to stderr. The process exits when
 * stdin closes.
 */
import type { JSONRPCMessage, McpServerFactory, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { EnvelopeFilter } from './stdio-envelope.gen.js';

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
          void inner.send({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: problem } } as JSONRPCMessage);
          return;
        }
      } else if ('method' in message && !modern && this.era !== 'legacy') {
        return; // a notification without an envelope outside the 2025 era: invalid, and never answered
      }
      const requested = versionOf(message);
      if (requested !== undefined && 'id' in message && 'method' in message && !this.supported.includes(requested)) {
        void inner.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32022, message: `Unsupported protocol version: ${requested}`, data: { supported: [...this.supported], requested } },
        } as JSONRPCMessage);
        return;
      }
      this.onmessage?.(message, extra);
    };
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
