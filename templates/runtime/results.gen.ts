/**
 * Escape hatch from the typed handler results: a handler wraps an SDK result
 * in `sdkResult(...)` and the runtime sends it as-is. This is how a handler
 * asks the client for input (multi round-trip, MRTR) or returns a full
 * `CallToolResult` (e.g. with `_meta`). The SDK helpers for MRTR are
 * re-exported so handlers need no SDK import of their own.
 */
import type { CallToolResult, GetPromptResult, InputRequiredResult, ReadResourceResult } from '@modelcontextprotocol/server';

export { acceptedContent, inputRequired, inputResponse, isInputRequiredResult } from '@modelcontextprotocol/server';

/** Any result a handler may hand to the SDK unchanged. */
export type AnySdkResult = CallToolResult | GetPromptResult | ReadResourceResult | InputRequiredResult;

/**
 * An SDK result marked for sending as-is. A class (not a bare object) so the
 * runtime can tell it from a typed reply by `instanceof`: a typed reply may
 * itself be any object (structured tool output), so no property test is safe.
 */
export class SdkResult<R extends AnySdkResult> {
  constructor(readonly result: R) {}
}

/** Marks `result` to be sent as-is: `return sdkResult(inputRequired({ inputRequests: {...} }))`. */
export function sdkResult<R extends AnySdkResult>(result: R): SdkResult<R> {
  return new SdkResult(result);
}

/** What a tool handler may return instead of its typed output. */
export type ToolSdkResult = SdkResult<CallToolResult | InputRequiredResult>;
/** What a resource handler may return instead of resource contents. */
export type ResourceSdkResult = SdkResult<ReadResourceResult | InputRequiredResult>;
/** What a prompt handler may return instead of messages. */
export type PromptSdkResult = SdkResult<GetPromptResult | InputRequiredResult>;
