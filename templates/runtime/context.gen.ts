/**
 * What a handler receives besides its input, and what it may return.
 */
import type { ContentBlock } from '@modelcontextprotocol/server';
import type { PromptSdkResult, ResourceSdkResult, ToolSdkResult } from './results.gen.js';

/** Who is calling: from the bearer token or OAuth access token; `anonymous` on stdio and without auth. */
export interface Principal {
  readonly id: string;
  readonly scopes: readonly string[];
}

/** What a multi round-trip (MRTR) retry carries: the answers to the handler's `inputRequests` and its own state. */
export interface RequestInput {
  /**
   * The client's answers, keyed by the ids of the handler's `inputRequests` (bare response objects);
   * empty on a first round. Untrusted client data: read them with `acceptedContent` / `inputResponse`.
   */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /**
   * The `requestState` the handler returned last round, or undefined on a first round. When the server
   * has a state key (any `approval: confirm` tool), the runtime seals it with HMAC (bound to the method,
   * principal and a 5-minute expiry) and a tampered one never reaches the handler; without one it is the
   * raw string the client echoed, so it must not carry anything the client may not forge.
   */
  readonly requestState: string | undefined;
}

/** The context of one call. `Issuers` maps each handle kind to its issuer. */
export interface HandlerContext<Issuers> {
  readonly principal: Principal;
  /** Mint state handles bound to this principal: `ctx.handles.note_draft.issue(id)`. */
  readonly handles: Issuers;
  /** Aborted when the client cancels or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * Writes a diagnostic line to stderr (never to stdout). Only a 2025-11-25 client on a legacy HTTP
   * session that asked for logs with `logging/setLevel` also receives it, as an info-level
   * `notifications/message`: log nothing a client must not see.
   */
  readonly log: (message: string) => void;
  /** Sends `notifications/progress` for this request; does nothing when the client sent no progress token. */
  readonly progress: (progress: number, total?: number, message?: string) => Promise<void>;
  /** What this round of a multi round-trip request carries. */
  readonly request: RequestInput;
}

/** What a tool without an output schema returns: text, content blocks, or an SDK result as-is (`sdkResult`). */
export type ToolContent = string | readonly ContentBlock[] | ToolSdkResult;

/** One piece of a resource: text, or base64 `blob`. `uri` defaults to the requested URI. */
export type ResourceContent =
  | { readonly text: string; readonly mimeType?: string; readonly uri?: string }
  | { readonly blob: string; readonly mimeType?: string; readonly uri?: string };

/** What a resource handler returns: text, one content, several (e.g. a directory), or an SDK result as-is. */
export type ResourceReply = string | ResourceContent | readonly ResourceContent[] | ResourceSdkResult;

/** One prompt message: text, or any content block (image, audio, embedded resource...). */
export type PromptMessageReply =
  | { readonly role: 'user' | 'assistant'; readonly text: string }
  | { readonly role: 'user' | 'assistant'; readonly content: ContentBlock };

/** What a prompt handler returns: the messages of the prompt, or an SDK result as-is (`sdkResult`). */
export type PromptReply = readonly PromptMessageReply[] | PromptSdkResult;

export type { ToolSdkResult } from './results.gen.js';
