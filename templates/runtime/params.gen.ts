/**
 * Params failing their method's schema are -32602, as the SDK answers them on tools/call; on other methods it says
 * -32603 (internal error) with the schema library's whole issue list, for a client's `cursor: 5`.
 */
import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

type Handler = (request: unknown, ctx: unknown) => Promise<unknown>;

/** Checks the params of each request `server` answers: handlers set so far and later ones (protected SDK members). */
export function checkParams(server: McpServer): void {
  const sdk = server.server as unknown as {
    _requestHandlers: Map<string, Handler>;
    _wrapHandler(method: string, handler: Handler): Handler;
    _negotiatedWireCodec(): {
      validateRequest(method: string, request: unknown): { reason?: string; message?: string };
    };
  };
  const checked = (method: string, inner: Handler): Handler =>
    method === 'tools/call'
      ? inner
      : async (request, ctx) => {
          const { reason, message = '' } = sdk._negotiatedWireCodec().validateRequest(method, request);
          if (reason !== 'invalid') return inner(request, ctx);
          // The first issue, as `params.cursor: Invalid input: ...` (the message is the issues as JSON).
          let issue = 'no match for its schema';
          try {
            const [first] = JSON.parse(message) as { path: unknown[]; message: string }[];
            if (first !== undefined) issue = `${first.path.join('.')}: ${first.message}`;
          } catch {}
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${issue}`);
        };
  const wrap = sdk._wrapHandler.bind(sdk);
  sdk._wrapHandler = (method, handler) => checked(method, wrap(method, handler));
  for (const [method, handler] of sdk._requestHandlers) sdk._requestHandlers.set(method, checked(method, handler));
}
