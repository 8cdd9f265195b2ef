/**
 * Approval for tools marked `approval: confirm`, through a multi round-trip (MRTR) elicitation. The first call answers
 * `input_required` with a yes/no form and a `requestState` sealed with the SDK's HMAC codec; the handler runs only on a
 * retry that carries an accepting answer AND that exact state.
 *
 * The state is bound to the tool, a SHA-256 digest of the canonical arguments (digest.gen.ts), the principal and an
 * expiry (`approvals.ttl`, 5 minutes by default), so an approval cannot be replayed for other arguments, another tool
 * or another user. Two layers check it:
 * - the SDK runs `verify` (wired as `ServerOptions.requestState.verify`) before any handler: a forged, tampered,
 *   expired or other-principal state is refused on the wire with -32602 "Invalid or expired requestState";
 * - `check` compares the verified payload with the current call: a genuine state used for other arguments or another
 *   tool gets an `isError` result, because the request itself is well-formed and the model should see why nothing
 *   happened.
 * Each approval runs its tool once: its nonce is claimed in the state store (store.gen.ts) until the approval expires,
 * atomically, so with a shared store (`redis`) a replay to another instance or after a restart is refused too. A store
 * that cannot answer refuses the call: the tool never runs unguarded.
 */
import { randomUUID } from 'node:crypto';
import {
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ApprovalPages, type PageVerdict } from './approval-page.gen.js';
import { loadKey } from './keys.gen.js';
import { serverOf } from './register.gen.js';
import { principalOf } from './call.gen.js';
import type { ToolSpec } from './spec.gen.js';
import { argumentsDigest, canonicalJson } from './digest.gen.js';
import {
  StoreUnavailableError,
  storeUnavailableText,
  type ApprovalService,
  type ApprovalVerdict,
  type StateStore,
} from './store.gen.js';
import type { Startup } from './startup.gen.js';

/** The key of the one input request an approval asks for. */
export const approvalInputKey = 'confirm';

/** What the sealed `requestState` carries. The codec signs it; it is readable, so it holds no secrets. */
interface ApprovalState {
  /** Tool name. */
  readonly t: string;
  /** SHA-256 (base64url) of the canonical JSON of the arguments. */
  readonly a: string;
  /** Principal id. */
  readonly p: string;
  /** Nonce, so each approval can be used once (see `consume`). */
  readonly n: string;
  /** Expiry, seconds since the epoch (the codec enforces its own copy). */
  readonly e: number;
}

/**
 * A handler's own `requestState` (see `sdkResult`), sealed with the same codec: the SDK verifies every
 * echoed state with one hook, so handler states must carry the same MAC to get past it.
 */
interface HandlerState {
  readonly s: string;
}

/** The handler's state string from a verified payload; undefined for an approval state or none. */
export function handlerStateOf(value: unknown): string | undefined {
  const v = value as Partial<HandlerState> | null | undefined;
  return typeof v === 'object' && v !== null && typeof v.s === 'string' ? v.s : undefined;
}

function isApprovalState(value: unknown): value is ApprovalState {
  const v = value as Partial<ApprovalState> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.t === 'string' &&
    typeof v.a === 'string' &&
    typeof v.p === 'string' &&
    typeof v.n === 'string' &&
    typeof v.e === 'number'
  );
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Asks for and checks approvals; one instance per process, shared by every per-request McpServer. */
export class Approvals implements ApprovalService {
  private readonly codec: RequestStateCodec<ApprovalState | HandlerState>;

  constructor(
    key: Buffer,
    principalOf: (ctx: ServerContext) => string,
    /** Holds the nonces of used approvals: in this process (`memory`) or shared by every instance (`redis`). */
    private readonly store: StateStore,
    private readonly log: (message: string) => void,
    /** The approval pages (`approvals.page` fallback or always), or null (`off`). */
    readonly pages: ApprovalPages | null = null,
    private readonly always = false,
    /** How long an approval stays answerable (`approvals.ttl`); every state the codec seals lasts as long. */
    private readonly ttlSeconds = 300,
    private readonly now: () => number = Date.now,
  ) {
    // bind: the codec also tags the state with method + principal, so the SDK itself refuses it for anyone else.
    this.codec = createRequestStateCodec<ApprovalState | HandlerState>({
      key,
      ttlSeconds,
      bind: (ctx) => `${ctx.mcpReq.method}\u0000${principalOf(ctx)}`,
    });
  }

  /** `ServerOptions.requestState.verify`: throws on a bad MAC, expiry, principal mismatch or malformed state. */
  readonly verify = (state: string, ctx: ServerContext): Promise<ApprovalState | HandlerState> =>
    this.codec.verify(state, ctx);

  /** The handler's own state string from a payload `verify` accepted; undefined for an approval state. */
  readonly handlerState = (payload: unknown): string | undefined => handlerStateOf(payload);

  /**
   * Seals a handler's own `requestState` so that `verify` accepts it on the retry (and only for this method and
   * principal).
   */
  readonly seal = (state: string, ctx: ServerContext): Promise<string> => this.codec.mint({ s: state }, ctx);

  /** Decides whether `tool` may run now with `args` for `principal`. */
  async check(tool: ToolSpec, args: unknown, principal: string, ctx: ServerContext): Promise<ApprovalVerdict> {
    const label = tool.listing.title === undefined ? `"${tool.name}"` : `"${tool.listing.title}" (${tool.name})`;
    const answer = inputResponse(ctx.mcpReq.inputResponses, approvalInputKey);
    if (answer.kind === 'elicit' && answer.action !== 'accept') {
      const verb = answer.action === 'cancel' ? 'cancelled' : 'declined';
      return { proceed: false, result: errorResult(`The user ${verb} ${label}; nothing was done.`) };
    }
    // The page when the manifest asks for it, or when the client cannot show a form.
    const capabilities = clientCapabilities(ctx);
    if (this.pages !== null && (this.always || (capabilities !== undefined && !declares(capabilities, 'form'))))
      return this.viaPage(this.pages, tool, label, args, principal, capabilities);
    if (answer.kind === 'elicit' && answer.content?.[approvalInputKey] !== true) {
      return { proceed: false, result: errorResult(`The user did not confirm ${label}; nothing was done.`) };
    }
    const state = ctx.mcpReq.requestState<unknown>();
    if (answer.kind !== 'elicit' || state === undefined)
      return { proceed: false, result: await this.ask(tool, label, args, principal, ctx) };
    const digest = argumentsDigest(args);
    if (!isApprovalState(state) || state.t !== tool.name || state.a !== digest || state.p !== principal) {
      return {
        proceed: false,
        result: errorResult(
          `The approval does not match this call of ${label} (other tool, arguments or user); nothing was done. Call ` +
            `the tool again to ask for a new approval.`,
        ),
      };
    }
    // The codec's own expiry is whole seconds and may run up to one late: the state's is exact.
    if (state.e * 1000 <= this.now())
      return {
        proceed: false,
        result: errorResult(`The approval of ${label} expired; nothing was done. Call the tool again to ask anew.`),
      };
    let fresh: boolean;
    try {
      fresh = await this.consume(state);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      this.log(`approval of "${tool.name}" refused: ${error.message}`);
      return { proceed: false, result: errorResult(storeUnavailableText(tool.name)) };
    }
    if (!fresh)
      return {
        proceed: false,
        result: errorResult(
          `This approval of ${label} was already used; nothing was done. Call the tool again to ask for a new ` +
            `approval.`,
        ),
      };
    return { proceed: true };
  }

  private async viaPage(
    pages: ApprovalPages,
    tool: ToolSpec,
    label: string,
    args: unknown,
    principal: string,
    capabilities: Readonly<Record<string, unknown>> | undefined,
  ): Promise<ApprovalVerdict> {
    const values = typeof args === 'object' && args !== null ? Object.entries(args as Record<string, unknown>) : [];
    const shown = values
      .map(([name, value]) => [name, canonicalJson(value)] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    let verdict: PageVerdict;
    try {
      verdict = await pages.request(tool, shown, argumentsDigest(args), principal);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      this.log(`approval of "${tool.name}" refused: ${error.message}`);
      return { proceed: false, result: errorResult(storeUnavailableText(tool.name)) };
    }
    if (verdict.kind === 'run') return { proceed: true };
    if (verdict.kind === 'declined')
      return {
        proceed: false,
        result: errorResult(`The user declined ${label} on the approval page; nothing was done.`),
      };
    const until = new Date(verdict.expiresAt).toISOString();
    const message =
      `${verdict.renewed ? 'The earlier approval link expired unused. ' : ''}Running ${label} needs a person's ` +
      `approval: open ${verdict.url} , check the call and approve it (the link expires at ${until}), then repeat ` +
      'the call with exactly the same arguments.';
    // A client that can open a URL for its user gets the link as a URL-mode input request; the repeat is its retry.
    if (capabilities !== undefined && declares(capabilities, 'url'))
      return {
        proceed: false,
        result: inputRequired({
          inputRequests: { [approvalInputKey]: inputRequired.elicitUrl({ message, url: verdict.url }) },
        }),
      };
    return {
      proceed: false,
      result: {
        content: [{ type: 'text', text: `${message} Ask the user to open the link; nothing was done yet.` }],
        isError: true,
        _meta: { 'mcp-gen/approval': { url: verdict.url, expiresAt: until } },
      },
    };
  }

  private async ask(
    tool: ToolSpec,
    label: string,
    args: unknown,
    principal: string,
    ctx: ServerContext,
  ): Promise<InputRequiredResult> {
    const payload: ApprovalState = {
      t: tool.name,
      a: argumentsDigest(args),
      p: principal,
      n: randomUUID(),
      e: Math.floor(this.now() / 1000) + this.ttlSeconds,
    };
    return inputRequired({
      inputRequests: {
        [approvalInputKey]: inputRequired.elicit({
          message: `Approve running ${label} with arguments ${canonicalJson(args ?? {})}?`,
          requestedSchema: {
            type: 'object',
            properties: {
              [approvalInputKey]: {
                type: 'boolean',
                title: 'Confirm',
                description: 'Yes, run it with exactly these arguments.',
              },
            },
            required: [approvalInputKey],
          },
        }),
      },
      requestState: await this.codec.mint(payload, ctx),
    });
  }

  /**
   * Claims `state`'s nonce until the approval expires (a second past, for clock skew); false when it was already used.
   */
  private consume(state: ApprovalState): Promise<boolean> {
    return this.store.claim(`approval:${state.n}`, state.t, state.e * 1000 - this.now() + 1000);
  }
}

/** The client capabilities of a 2026-07-28 request, or those a 2025-11-25 client declared in `initialize`. */
function clientCapabilities(ctx: ServerContext): Readonly<Record<string, unknown>> | undefined {
  const envelope = (ctx.mcpReq as { envelope?: Record<string, unknown> }).envelope;
  const capabilities = envelope?.['io.modelcontextprotocol/clientCapabilities'];
  if (typeof capabilities === 'object' && capabilities !== null) return capabilities as Record<string, unknown>;
  return serverOf.get(ctx)?.server.getClientCapabilities();
}

/** Whether `capabilities` declare elicitation in `mode` (an empty `elicitation` object means form). */
function declares(capabilities: Readonly<Record<string, unknown>>, mode: 'form' | 'url'): boolean {
  const elicitation = capabilities.elicitation as Record<string, unknown> | undefined;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  return elicitation[mode] !== undefined || (mode === 'form' && Object.keys(elicitation).length === 0);
}

/** The approval service, keyed from the environment variable the registry names. */
export const approvalHooks = ({ registry, environment, local, log }: Startup, store: StateStore): ApprovalService => {
  const key = loadKey(registry.secrets.requestStateKeyEnv, environment, local, log);
  const { page, ttlMs } = registry.approvals;
  const ttlSeconds = Math.ceil(ttlMs / 1000);
  const pages =
    page === 'off' ? null : new ApprovalPages(store, key, registry.server.name, ttlSeconds * 1000, environment, log);
  return new Approvals(key, (ctx) => principalOf(ctx).id, store, log, pages, page === 'always', ttlSeconds);
};
