/**
 * Errors a handler may throw on purpose. Their message is shown to the client.
 * Any other exception is logged to stderr with its stack and answered with a
 * generic message, so internals never leak to a client.
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
