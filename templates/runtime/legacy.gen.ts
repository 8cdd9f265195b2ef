/**
 * What a 2025-11-25 connection adds to a server, on stdio and over HTTP alike (projects with `protocol.legacy: serve`):
 * the 2025-era requests that have no 2026-07-28 form, each declared in `initialize` exactly when it is answered.
 *
 * - `logging` and `logging/setLevel`: once the client chose a level, a handler's `ctx.log` lines at or above it reach
 *   that client as `notifications/message`; never before it asks.
 * - `resources/subscribe` / `unsubscribe`: only where `resources.subscribe` is declared
 *   (`notifications.resourceUpdates`), served by notify.gen.ts, which then sends
 *   `notifications/resources/updated` for the subscribed URIs.
 *
 * - An unknown resource is 2025-11-25's -32002 (the SDK sends 2026-07-28's -32602 with data `{ uri }` on both eras).
 *
 * A server without resources answers every `resources/*` request -32601, as the spec asks of a method whose capability
 * was not advertised.
 */
import type { JSONRPCMessage, LoggingLevel, McpServer, Server, Transport } from '@modelcontextprotocol/server';

const logLevels: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** True for a log notification the client did not ask for (no level chosen, or below it). */
export function unwanted(message: JSONRPCMessage, level: LoggingLevel | undefined): boolean {
  if (!('method' in message) || message.method !== 'notifications/message') return false;
  const sent = (message.params as { level?: string } | undefined)?.level ?? '';
  return level === undefined || logLevels.indexOf(sent) < logLevels.indexOf(level);
}

/** `message` with a resource-not-found -32602 (data exactly `{ uri }`) as -32002. */
export function legacyCodes(message: JSONRPCMessage): JSONRPCMessage {
  const error = 'error' in message ? message.error : undefined;
  const data = error?.data as { uri?: unknown } | undefined;
  if (error?.code !== -32602 || typeof data?.uri !== 'string' || Object.keys(data).length !== 1) return message;
  return { ...message, error: { ...error, code: -32002 } } as JSONRPCMessage;
}

/** Adds the legacy-only requests to the server of a 2025-11-25 connection (module comment); call before connect. */
export function adaptLegacy<P extends McpServer | Server>(product: P): P {
  const server: Server = 'server' in product ? product.server : product;
  let level: LoggingLevel | undefined;
  server.registerCapabilities({ logging: {} });
  server.setRequestHandler('logging/setLevel', async (request) => {
    level = request.params.level;
    return {};
  });
  // Whatever transport the connection brings (a session's HTTP transport, the stdio channel), its log lines are
  // filtered by the level.
  const connect = product.connect.bind(product) as (transport: Transport) => Promise<void>;
  product.connect = async (transport: Transport) => {
    const send = transport.send.bind(transport);
    transport.send = async (message, options) =>
      unwanted(message, level) ? undefined : send(legacyCodes(message), options);
    return connect(transport);
  };
  return product;
}
