/**
 * What a handler receives besides its input, and what it may return.
 */
import type { ContentBlock } from '@modelcontextprotocol/server';

/** Who is calling: from the bearer token or OAuth access token; `anonymous` on stdio and without auth. */
export interface Principal {
  readonly id: string;
  readonly scopes: readonly string[];
}

/** The context of one call. `Issuers` maps each handle kind to its issuer. */
export interface HandlerContext<Issuers> {
  readonly principal: Principal;
  /** Mint state handles bound to this principal: `ctx.handles.note_draft.issue(id)`. */
  readonly handles: Issuers;
  /** Aborted when the client cancels or the connection closes. */
  readonly signal: AbortSignal;
  /** Writes a diagnostic line to stderr (never to the protocol stream). */
  readonly log: (message: string) => void;
}

/** What a tool without an output schema returns: text, or content blocks. */
export type ToolContent = string | readonly ContentBlock[];

/** One piece of a resource: text, or base64 `blob`. `uri` defaults to the requested URI. */
export type ResourceContent =
  | { readonly text: string; readonly mimeType?: string; readonly uri?: string }
  | { readonly blob: string; readonly mimeType?: string; readonly uri?: string };

/** What a resource handler returns: text, one content, or several (e.g. a directory). */
export type ResourceReply = string | ResourceContent | readonly ResourceContent[];

/** What a prompt handler returns: the messages of the prompt. */
export type PromptReply = readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
