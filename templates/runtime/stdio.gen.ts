/**
 * stdio: newline-delimited JSON-RPC on stdin/stdout. stdout carries only
 * protocol messages; every diagnostic goes to stderr. The process exits when
 * stdin closes.
 */
import type { JSONRPCMessage, McpServerFactory, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const versionKey = 'io.modelcontextprotocol/protocolVersion';

/**
 * Answers -32022 to every request whose `_meta` names a well-formed but
 * unsupported protocol version. The SDK checks this only until the connection
 * is pinned to an era; the spec wants it on every request.
 */
export class VersionGuardTransport implements Transport {
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

function versionOf(message: unknown): string | undefined {
  const params = (message as { params?: { _meta?: Record<string, unknown> } }).params;
  const version = params?._meta?.[versionKey];
  return typeof version === 'string' ? version : undefined;
}

/** Serves `factory` on stdin/stdout until stdin closes. */
export function startStdio(factory: McpServerFactory, versions: readonly string[], legacy: 'serve' | 'reject', log: (message: string) => void): { close(): Promise<void> } {
  return serveStdio(factory, {
    legacy,
    transport: new VersionGuardTransport(new StdioServerTransport(), versions),
    onerror: (error) => log(`stdio: ${error.message}`),
  });
}
