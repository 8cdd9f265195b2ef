/**
 * What a handler receives, returns and throws (through src/generated/index.gen.ts). Only a ToolError's message reaches
 * the client; other exceptions go to stderr. `sdkResult(...)` sends an SDK result as-is (e.g. to ask for input, MRTR).
 */
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceResult,
} from '@modelcontextprotocol/server';

export { acceptedContent, inputRequired, inputResponse, isInputRequiredResult } from '@modelcontextprotocol/server';

/**
 * Why a call failed, as the caller should see it: a bad argument, a missing thing, a clash with the current state, a
 * failure.
 */
export type ErrorKind = 'invalid' | 'not_found' | 'conflict' | 'failed';

/**
 * A failure whose message the caller sees: a tool's `isError` result; for a resource or prompt -32602 (invalid,
 * not_found) or -32603.
 */
export class ToolError extends Error {
  override readonly name: string = 'ToolError';
  constructor(
    message: string,
    readonly kind: ErrorKind = 'failed',
    /** The same call may succeed later (an upstream 5xx, a network failure): `_meta['mcp-gen/error'].retryable`. */
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** A resource that does not exist: -32602 "Resource not found" with the URI in `data`, as the spec requires. */
export class ResourceNotFoundError extends ToolError {
  constructor(readonly uri: string) {
    super(`Resource not found: ${uri}`, 'not_found');
  }
}

/** What a fresh handler stub throws until someone writes the handler. */
export const notImplemented = (kind: 'tool' | 'resource' | 'prompt', name: string): ToolError =>
  new ToolError(`The ${kind} "${name}" is not implemented yet.`);

/**
 * Codes of a connection that failed or broke: Node's sockets and DNS, undici, and PostgreSQL's 57P01-57P03 (the server
 * shut down or is starting) besides its SQLSTATE class 08 (isConnectionFailure).
 */
const connectionCodes = new Set(
  (
    'ECONNREFUSED ECONNRESET ECONNABORTED ETIMEDOUT EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ' +
    '57P01 57P02 57P03 UND_ERR_CONNECT_TIMEOUT UND_ERR_SOCKET'
  ).split(' '),
);
/** The messages and names of what the PostgreSQL and Redis clients (pg, ioredis, node-redis) throw without a code. */
const connectionErrors = new Set([
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Connection is closed.',
  'MaxRetriesPerRequestError',
  'ConnectionTimeoutError',
  'SocketClosedUnexpectedlyError',
  'ClientClosedError',
  'ClientOfflineError',
  'ReconnectStrategyError',
]);

/**
 * Whether `error`, an error in its `cause` chain or one of an AggregateError's is a refused or broken connection, so
 * the same call may succeed later. @internal: the runtime's, not in the facade.
 */
export function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 8) return false;
  const { code, name, message, cause, errors } = error as Record<string, unknown>;
  return (
    (typeof code === 'string' && (connectionCodes.has(code) || /^08[0-9A-Z]{3}$/.test(code))) ||
    connectionErrors.has(String(message)) ||
    connectionErrors.has(String(name)) ||
    isConnectionFailure(cause, depth + 1) ||
    (Array.isArray(errors) && errors.some((inner) => isConnectionFailure(inner, depth + 1)))
  );
}

/** Raised when the server must not start; the message says what to set. @internal: the runtime's, not in the facade. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** Any result a handler may hand to the SDK unchanged. */
export type AnySdkResult = CallToolResult | GetPromptResult | ReadResourceResult | InputRequiredResult;

/** An SDK result marked for sending as-is; a class, because a typed reply may itself be any object. */
export class SdkResult<R extends AnySdkResult> {
  constructor(readonly result: R) {}
}

/** Marks `result` to be sent as-is: `return sdkResult(inputRequired({ inputRequests: {...} }))`. */
export const sdkResult = <R extends AnySdkResult>(result: R): SdkResult<R> => new SdkResult(result);

/** What a tool, resource or prompt handler may return instead of its typed reply. */
export type ToolSdkResult = SdkResult<CallToolResult | InputRequiredResult>;
export type ResourceSdkResult = SdkResult<ReadResourceResult | InputRequiredResult>;
export type PromptSdkResult = SdkResult<GetPromptResult | InputRequiredResult>;

/** Who is calling: from the bearer token or OAuth access token; `anonymous` on stdio and without auth. */
export interface Principal {
  readonly id: string;
  readonly scopes: readonly string[];
}

/** What a multi round-trip (MRTR) retry carries: the answers to the handler's `inputRequests` and its own state. */
export interface RequestInput {
  /**
   * The client's answers by input request id; empty on a first round. Untrusted: read them with `acceptedContent` /
   * `inputResponse`.
   */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /**
   * The `requestState` the handler returned last round: HMAC-sealed to method, principal and `approvals.ttl` with a
   * state key (any `approval: confirm` tool), else the raw echo.
   */
  readonly requestState: string | undefined;
}

/**
 * What `setup` (src/setup.ts) gets besides the configuration. `mode` is `test` when the contract tests run the server
 * (MCP_GEN_TEST_MODE=1): open a throwaway database or a fake there, never the live one.
 */
export interface SetupTools {
  readonly mode: 'serve' | 'test';
  /** Announces changes from outside any call (a watcher, a timer): the same as a handler's `ctx.notify`. */
  readonly notify: Notify;
  /** Writes a line to stderr: on stdio, stdout carries only protocol messages. */
  readonly log: (message: string) => void;
}

/**
 * A readiness check of src/setup.ts, by name in `export const ready: ReadyChecks = { name: check }`: `/readyz` runs it
 * with what `setup` returned and answers 503 while it fails. It passes when it returns `true` or nothing; it fails when
 * it returns `false` or a message (which `/readyz` shows as the reason), throws (the error goes to stderr only) or has
 * not settled within 500 ms (`signal` aborts then).
 */
export type ReadyCheck<Services = unknown> = (
  services: Services,
  signal: AbortSignal,
) => Promise<boolean | string | undefined> | boolean | string | undefined;

/** A list whose changes a server may announce (manifest `notifications.listChanged`). */
export type ListName = 'tools' | 'resources' | 'prompts';

/**
 * Change notifications, to every client listening on any instance (manifest `notifications`). A change the manifest
 * does not declare throws: the server's capabilities promise exactly the declared ones.
 */
export interface Notify {
  /** `notifications/resources/updated` to the clients subscribed to `uri` (`notifications.resourceUpdates: true`). */
  resourceUpdated(uri: string): void;
  /** `notifications/<list>/list_changed` to the clients listening for it (`notifications.listChanged: [<list>]`). */
  listChanged(list: ListName): void;
}

/**
 * `ctx.notify` of a server whose manifest declares no change: each call says what to declare.
 * @internal: the runtime's, not in the facade.
 */
export const undeclaredNotify: Notify = {
  resourceUpdated: () => {
    throw new Error('ctx.notify.resourceUpdated needs notifications.resourceUpdates: true in the manifest');
  },
  listChanged: (list) => {
    throw new Error(`ctx.notify.listChanged('${list}') needs "${list}" in notifications.listChanged in the manifest`);
  },
};

/**
 * The context of one call. `Issuers` maps each handle kind to its issuer; `Services` is what `setup` returned.
 */
export interface HandlerContext<Issuers, Services = unknown> {
  readonly principal: Principal;
  /** Mint state handles bound to this principal: `ctx.handles.<kind>.issue(id)` (the kinds: `HandleIssuers`). */
  readonly handles: Issuers;
  /** Aborted when the client cancels, the connection closes or the tool's `timeout` passes. */
  readonly signal: AbortSignal;
  /** Writes a line to stderr; a legacy HTTP client that sent logging/setLevel also gets it (notifications/message). */
  readonly log: (message: string) => void;
  /** Sends `notifications/progress` for this request; does nothing when the client sent no progress token. */
  readonly progress: (progress: number, total?: number, message?: string) => Promise<void>;
  readonly request: RequestInput;
  /** What `setup` in src/setup.ts returned (a pool, a client...): the same object for every call of this process. */
  readonly services: Services;
  /** Announces that a resource or a list changed (see Notify). */
  readonly notify: Notify;
}

/** What a tool without an output schema returns: text, content blocks, or an SDK result as-is. */
export type ToolContent = string | readonly ContentBlock[] | ToolSdkResult;

/** One piece of a resource: text, or base64 `blob`. `uri` defaults to the requested URI. */
export type ResourceContent = ({ readonly text: string } | { readonly blob: string }) & {
  readonly mimeType?: string;
  readonly uri?: string;
};

/** What a resource handler returns: text, one content, several (e.g. a directory), or an SDK result as-is. */
export type ResourceReply = string | ResourceContent | readonly ResourceContent[] | ResourceSdkResult;

/** One prompt message: text, or any content block (image, audio, embedded resource...). */
export type PromptMessageReply =
  | { readonly role: 'user' | 'assistant'; readonly text: string }
  | { readonly role: 'user' | 'assistant'; readonly content: ContentBlock };

/** What a prompt handler returns: the messages of the prompt, or an SDK result as-is. */
export type PromptReply = readonly PromptMessageReply[] | PromptSdkResult;
