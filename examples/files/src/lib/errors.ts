/**
 * Turns scope errors into what the runtime shows: a tool error the model can read for tools, and for
 * resources "resource not found" (-32602), the only client error a resource handler can raise.
 */
import { ResourceNotFoundError, ToolError } from '../generated/index.gen.js';
import { ConfigError, NotFoundError, ScopeError } from './scope.js';

/** Runs a tool body; a refused or missing path becomes a ToolError with the reason. */
export async function asTool<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ScopeError || error instanceof NotFoundError || error instanceof ConfigError) throw new ToolError(error.message);
    throw error;
  }
}

/**
 * Runs a resource body; a refused or missing path becomes -32602 for `uri`, with the reason logged on
 * stderr. A misconfigured scope is the server's fault and stays an internal error with its message.
 */
export async function asResource<T>(uri: URL, log: (message: string) => void, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ScopeError || error instanceof NotFoundError) {
      log(`files: refused ${uri.href}: ${error.message}`);
      throw new ResourceNotFoundError(uri.href);
    }
    if (error instanceof ConfigError) throw new ToolError(error.message);
    throw error;
  }
}
