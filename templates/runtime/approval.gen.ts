/**
 * Approval for tools marked `approval: confirm`, through a multi round-trip
 * (MRTR) elicitation. The first call answers `input_required` with a yes/no
 * form and a `requestState` sealed with the SDK's HMAC codec; the handler runs
 * only on a retry that carries an accepting answer AND that exact state.
 *
 * The state is bound to the tool, a SHA-256 digest of the canonical arguments,
 * the principal and a 5-minute expiry, so an approval cannot be replayed for
 * other arguments, another tool or another user. Two layers check it:
 * - the SDK runs `verify` (wired as `ServerOptions.requestState.verify`) before
 *   any handler: a forged, tampered, expired or other-principal state is refused
 *   on the wire with -32602 "Invalid or expired requestState";
 * - `check` compares the verified payload with the current call: a genuine
 *   state used for other arguments or another tool gets an `isError` result,
 *   because the request itself is well-formed and the model should see why
 *   nothing happened.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createRequestStateCodec, inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { loadKey } from './keys.gen.js';
import { principalOf, type ApprovalHooks, type ApprovalVerdict } from './register.gen.js';
import type { ToolSpec } from './spec.gen.js';
import type { OptionalModules } from './start.gen.js';

/** How long an approval request stays answerable. */
export const approvalTtlSeconds = 300;

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
  /** Nonce, so each approval can be used once (see `used`). */
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

/** JSON with object keys sorted at every depth, so equal arguments always hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of the canonical JSON of `args`, base64url. */
export function argumentsDigest(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args ?? {})).digest('base64url');
}

function isApprovalState(value: unknown): value is ApprovalState {
  const v = value as Partial<ApprovalState> | null;
  return typeof v === 'object' && v !== null && typeof v.t === 'string' && typeof v.a === 'string' && typeof v.p === 'string' && typeof v.n === 'string' && typeof v.e === 'number';
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Asks for and checks approvals; one instance per process, shared by every per-request McpServer. */
export class Approvals implements ApprovalHooks {
  private readonly codec: RequestStateCodec<ApprovalState | HandlerState>;
  /**
   * Nonces of approvals already used, with their expiry. This makes an approval
   * single-use within one process; across instances only the 5-minute expiry
   * limits a replay of the very same call, since nothing is shared but the key.
   */
  private readonly used = new Map<string, number>();

  constructor(
    key: Buffer,
    principalOf: (ctx: ServerContext) => string,
    private readonly now: () => number = Date.now,
  ) {
    // bind: the codec also tags the state with method + principal, so the SDK itself refuses it for anyone else.
    this.codec = createRequestStateCodec<ApprovalState | HandlerState>({ key, ttlSeconds: approvalTtlSeconds, bind: (ctx) => `${ctx.mcpReq.method}\u0000${principalOf(ctx)}` });
  }

  /** `ServerOptions.requestState.verify`: throws on a bad MAC, expiry, principal mismatch or malformed state. */
  readonly verify = (state: string, ctx: ServerContext): Promise<ApprovalState | HandlerState> => this.codec.verify(state, ctx);

  /** The handler's own state string from a payload `verify` accepted; undefined for an approval state. */
  readonly handlerState = (payload: unknown): string | undefined => handlerStateOf(payload);

  /** Seals a handler's own `requestState` so that `verify` accepts it on the retry (and only for this method and principal). */
  readonly seal = (state: string, ctx: ServerContext): Promise<string> => this.codec.mint({ s: state }, ctx);

  /** Decides whether `tool` may run now with `args` for `principal`. */
  async check(tool: ToolSpec, args: unknown, principal: string, ctx: ServerContext): Promise<ApprovalVerdict> {
    const label = tool.title === null ? `"${tool.name}"` : `"${tool.title}" (${tool.name})`;
    const answer = inputResponse(ctx.mcpReq.inputResponses, approvalInputKey);
    if (answer.kind === 'elicit' && answer.action !== 'accept') {
      const verb = answer.action === 'cancel' ? 'cancelled' : 'declined';
      return { proceed: false, result: errorResult(`The user ${verb} ${label}; nothing was done.`) };
    }
    if (answer.kind === 'elicit' && answer.content?.[approvalInputKey] !== true) {
      return { proceed: false, result: errorResult(`The user did not confirm ${label}; nothing was done.`) };
    }
    const state = ctx.mcpReq.requestState<unknown>();
    if (answer.kind !== 'elicit' || state === undefined) return { proceed: false, result: await this.ask(tool, label, args, principal, ctx) };
    const digest = argumentsDigest(args);
    if (!isApprovalState(state) || state.t !== tool.name || state.a !== digest || state.p !== principal) {
      return {
        proceed: false,
        result: errorResult(`The approval does not match this call of ${label} (other tool, arguments or user); nothing was done. Call the tool again to ask for a new approval.`),
      };
    }
    if (!this.consume(state)) return { proceed: false, result: errorResult(`This approval of ${label} was already used; nothing was done. Call the tool again to ask for a new approval.`) };
    return { proceed: true };
  }

  private async ask(tool: ToolSpec, label: string, args: unknown, principal: string, ctx: ServerContext): Promise<InputRequiredResult> {
    const payload: ApprovalState = { t: tool.name, a: argumentsDigest(args), p: principal, n: randomUUID(), e: Math.floor(this.now() / 1000) + approvalTtlSeconds };
    return inputRequired({
      inputRequests: {
        [approvalInputKey]: inputRequired.elicit({
          message: `Approve running ${label} with arguments ${canonicalJson(args ?? {})}?`,
          requestedSchema: {
            type: 'object',
            properties: { [approvalInputKey]: { type: 'boolean', title: 'Confirm', description: 'Yes, run it with exactly these arguments.' } },
            required: [approvalInputKey],
          },
        }),
      },
      requestState: await this.codec.mint(payload, ctx),
    });
  }

  /**
   * Marks `state` used; false when it already was. Expired nonces are dropped
   * first; insertion order roughly follows expiry, so pruning stops at the first
   * live entry (a stray expired one may linger a while, which only costs memory).
   */
  private consume(state: ApprovalState): boolean {
    const nowSeconds = Math.floor(this.now() / 1000);
    for (const [nonce, expiry] of this.used) {
      if (expiry >= nowSeconds) break;
      this.used.delete(nonce);
    }
    if (this.used.has(state.n)) return false;
    this.used.set(state.n, state.e);
    return true;
  }
}

/** The approval service, keyed from the environment variable the registry names. */
export const approvalHooks: OptionalModules['approval']['approvalHooks'] = ({ registry, environment, local, log }) =>
  new Approvals(loadKey(registry.secrets.requestStateKeyEnv, environment, local, log), (ctx) => principalOf(ctx).id);
