/**
 * Errors with a known meaning. The first three are for handlers: their message
 * is shown to the client. Any other exception a handler throws is logged to
 * stderr with its stack and answered with a generic message, so internals
 * never leak to a client. The last two are the runtime's own; they live here,
 * in a module every server loads anyway, so that checking for them never loads
 * the code (and `node:crypto`) that throws them.
 */

/** A tool failure the model should see: becomes an `isError: true` result with this message. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** A resource that does not exist: becomes JSON-RPC error -32602 with the URI in `data`. */
export class ResourceNotFoundError extends Error {
  override readonly name = 'ResourceNotFoundError';
  constructor(readonly uri: string) {
    super(`Resource not found: ${uri}`);
  }
}

/** What a fresh handler stub throws until someone writes the handler. */
export function notImplemented(kind: 'tool' | 'resource' | 'prompt', name: string): ToolError {
  return new ToolError(`The ${kind} "${name}" is not implemented yet.`);
}

/** Why a state handle was refused; the message is safe to show to a client. */
export class HandleError extends Error {
  override readonly name = 'HandleError';
}

/** Raised when the server must not start; the message says what to set. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
