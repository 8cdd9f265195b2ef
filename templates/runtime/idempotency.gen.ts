/**
 * Idempotency keys for tools marked `idempotency: key`: a client that retries after a timeout gets the
 * first call's result instead of running the work twice. Before the handler runs, the runtime claims
 * the caller's key in the state store (store.gen.ts) with a SHA-256 digest of the other arguments:
 * - same key, same arguments, finished: the stored result, and the handler does not run (a retryable failure is no
 *   longer marked retryable: this key gets it again);
 * - same key, other arguments: an error, nothing runs;
 * - same key while the first call still runs: the duplicate waits (polling the store, at most
 *   `idempotencyWaitMs`) and returns the first call's result; past that wait, an "in progress" error;
 * - a store that cannot answer: an error, nothing runs (fail closed).
 * The claim lasts until the handler itself settles, not its caller: after a cancel, a disconnect or the
 * timeout the handler keeps its claim (renewed while it runs, see `pendingTtlMs`) and its real result is
 * stored when it comes. Only a handler that asks for input (input_required) or stops by throwing the abort
 * of its aborted signal releases the claim: no result exists, so the retry runs it. The key is per
 * principal and per tool: callers never see each other's results.
 */
import { createHash, randomUUID } from 'node:crypto';
import { isInputRequiredResult, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import { answerOf, type ToolRun } from './hooks.gen.js';
import type { ToolSpec } from './spec.gen.js';
import { argumentsDigest } from './digest.gen.js';
import {
  StoreUnavailableError,
  storeUnavailableText,
  withdraw,
  type IdempotencyHooks,
  type StateStore,
} from './store.gen.js';

/** The argument `idempotency: key` adds to a tool's input. */
export const idempotencyKeyArgument = 'idempotencyKey';

/** How long a duplicate waits for the first call's result before it is told the call is still in progress. */
export const idempotencyWaitMs = 30_000;

/**
 * How long a claim lasts unless renewed: its process renews it every third of this while the handler runs; if that
 * process dies, the key is free again after this.
 */
export const pendingTtlMs = 300_000;

/** A ledger entry: the digest of the arguments, the claim's own id while pending, and the result once stored. */
type Entry = { readonly d: string; readonly c?: string; readonly r?: CallToolResult };

type Answer = CallToolResult | InputRequiredResult;

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stored result as a call that did not run gets it. A retryable failure is not retryable with this key, which gets it
 * again until the entry expires: the copy says so in a text block, and leaves `retryable` out of its `_meta`.
 */
function replayed(result: CallToolResult): CallToolResult {
  const { 'mcp-gen/error': error, ...others } = result._meta ?? {};
  if ((error as { retryable?: unknown } | undefined)?.retryable !== true) return result;
  const { _meta, ...rest } = result;
  const text =
    'This is the stored result of the first call with this idempotencyKey: a retry with the same key gets it again. ' +
    'To try again, use a new key.';
  return {
    ...rest,
    content: [...rest.content, { type: 'text', text }],
    ...(Object.keys(others).length > 0 ? { _meta: others } : {}),
  };
}

/** The ledger of one server; one instance per process. */
export class IdempotencyLedger implements IdempotencyHooks {
  constructor(
    private readonly store: StateStore,
    private readonly ttlMs: number,
    private readonly log: (message: string) => void,
    private readonly waitMs: number = idempotencyWaitMs,
  ) {}

  /** The stored answer for this key (waiting while its first call runs), or null when the call must go on. */
  async recall(tool: ToolSpec, args: unknown, principal: string): Promise<CallToolResult | null> {
    const { key, digest } = this.address(tool, args, principal);
    try {
      const raw = await this.store.get(key);
      return raw === null ? null : await this.answer(tool, key, digest, JSON.parse(raw) as Entry);
    } catch (error) {
      return this.unavailable(tool, error);
    }
  }

  /**
   * Claims the key, starts the handler and stores its outcome when it settles; a key already claimed is answered as
   * `recall` does.
   */
  async run(tool: ToolSpec, args: unknown, principal: string, execute: () => ToolRun): Promise<Answer> {
    const { key, digest } = this.address(tool, args, principal);
    // A claim can fail and the entry vanish before it is read (it expired); three tries cover that race.
    for (let attempt = 0; attempt < 3; attempt++) {
      let claimed: boolean | undefined;
      let raw: string | null = null;
      const claim = JSON.stringify({ d: digest, c: randomUUID() } satisfies Entry);
      try {
        claimed = await this.store.claim(key, claim, pendingTtlMs);
        if (!claimed) raw = await this.store.get(key);
      } catch (error) {
        // Nothing ran under this claim: the retry must run, not wait on it.
        if (claimed === undefined && error instanceof StoreUnavailableError) withdraw(this.store, key, claim);
        return this.unavailable(tool, error);
      }
      if (!claimed && raw === null) continue;
      if (!claimed) {
        try {
          return await this.answer(tool, key, digest, JSON.parse(raw ?? '{}') as Entry);
        } catch (error) {
          return this.unavailable(tool, error);
        }
      }
      return this.execute(tool, key, digest, execute);
    }
    return errorResult(
      `The call of "${tool.name}" with this idempotencyKey could not be claimed; retry with the same key.`,
    );
  }

  /**
   * Runs the handler; the caller gets its answer (or the interruption), and the store its real outcome once the handler
   * settles.
   */
  private async execute(tool: ToolSpec, key: string, digest: string, start: () => ToolRun): Promise<Answer> {
    // The claim is renewed while the handler runs (a handler may outlive pendingTtlMs); touch only extends a live key.
    const renewal = setInterval(
      () => void this.store.touch(key, pendingTtlMs).catch(() => undefined),
      pendingTtlMs / 3,
    );
    // A Worker's timers are numbers, without unref.
    if (typeof renewal === 'object') renewal.unref();
    const run = start();
    const stored = run.outcome.then(async (outcome) => {
      clearInterval(renewal);
      await this.settle(tool, key, digest, outcome);
      return outcome;
    });
    // A handler that finished in time has its result stored before its caller sees it.
    return answerOf({ outcome: stored, interruption: run.interruption });
  }

  /** Stores a settled handler's result; input_required or a stop on the abort (null) releases the claim instead. */
  private async settle(tool: ToolSpec, key: string, digest: string, outcome: Answer | null): Promise<void> {
    try {
      if (outcome === null || isInputRequiredResult(outcome)) await this.store.remove(key);
      else await this.store.put(key, JSON.stringify({ d: digest, r: outcome } satisfies Entry), this.ttlMs);
    } catch (error) {
      // The handler ran: only a retry of this key may run it again once the claim lapses (pendingTtlMs).
      this.log(
        `idempotency: the outcome of "${tool.name}" was not stored: ` +
          `${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * What a call gets for an existing entry: the stored result, a mismatch error, or (while pending) the result once it
   * is there.
   */
  private async answer(tool: ToolSpec, key: string, digest: string, entry: Entry): Promise<CallToolResult> {
    const deadline = Date.now() + this.waitMs;
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      if (entry.d !== digest)
        return errorResult(
          `The idempotencyKey was already used for a call of "${tool.name}" with other arguments; nothing was done. ` +
            `Use a new key for a new operation.`,
        );
      if (entry.r !== undefined) return replayed(entry.r);
      if (Date.now() >= deadline)
        return errorResult(
          `A call of "${tool.name}" with this idempotencyKey is still in progress; nothing more was done. Retry with ` +
            `the same key later to get its result.`,
        );
      await sleep(pause);
      const raw = await this.store.get(key);
      // Gone: the first call asked for input or stopped on its signal and released its claim; this call did not run
      // either.
      if (raw === null)
        return errorResult(
          `The call of "${tool.name}" with this idempotencyKey did not finish; nothing was stored. Retry with the ` +
            `same key.`,
        );
      entry = JSON.parse(raw) as Entry;
    }
  }

  /** Store key and argument digest: the key is per tool and principal; the digest leaves the key itself out. */
  private address(tool: ToolSpec, args: unknown, principal: string): { key: string; digest: string } {
    const { [idempotencyKeyArgument]: given, ...rest } = (args ?? {}) as Record<string, unknown>;
    const owner = createHash('sha256')
      .update(JSON.stringify([tool.name, principal, String(given)]))
      .digest('base64url');
    return { key: `idempotency:${owner}`, digest: argumentsDigest(rest) };
  }

  private unavailable(tool: ToolSpec, error: unknown): CallToolResult {
    if (!(error instanceof StoreUnavailableError)) throw error;
    this.log(`idempotency of "${tool.name}" refused: ${error.message}`);
    return errorResult(storeUnavailableText(tool.name));
  }
}

/** The ledger on `store`, results kept for `ttlMs` (the registry's `store.idempotencyTtlMs`). */
export function idempotencyHooks(store: StateStore, ttlMs: number, log: (message: string) => void): IdempotencyHooks {
  return new IdempotencyLedger(store, ttlMs, log);
}
