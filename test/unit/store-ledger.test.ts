import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolRun } from '../../templates/runtime/hooks.gen.js';
import { IdempotencyLedger, pendingTtlMs } from '../../templates/runtime/idempotency.gen.js';
import type { ToolSpec } from '../../templates/runtime/spec.gen.js';
import { MemoryStore, memoryStoreLimit, StoreUnavailableError } from '../../templates/runtime/store.gen.js';

// The memory store and the idempotency ledger in one process: claims, concurrent duplicates, bounded waits, cancels,
// timeouts, stops on the abort and the renewal of a long handler's claim.

const tool = { name: 'send', idempotency: 'key' } as unknown as ToolSpec;
const ok = (text: string) => ({ content: [{ type: 'text' as const, text }] });
type Result = ReturnType<typeof ok>;

/** A handler run whose caller never stops waiting first. */
const started = (work: () => Promise<Result>) => (): ToolRun => ({
  outcome: work(),
  interruption: new Promise<never>(() => undefined),
});

/** A handler that answers `result` at once, counting its runs. */
function counted(result: Result) {
  let runs = 0;
  const start = started(async () => {
    runs++;
    return result;
  });
  return { start, runs: () => runs };
}

/** A handler run the test settles by hand and whose caller it interrupts by hand (cancel rejects, timeOut resolves). */
function controlled() {
  let settle: (outcome: Result | null) => void = () => undefined;
  let cancel: (reason: unknown) => void = () => undefined;
  let timeOut: (answer: Result) => void = () => undefined;
  const outcome = new Promise<Result | null>((resolve) => (settle = resolve));
  const interruption = new Promise<Result>((resolve, reject) => {
    cancel = reject;
    timeOut = resolve;
  });
  return { start: (): ToolRun => ({ outcome, interruption }), settle, cancel, timeOut };
}

describe('the memory store and the idempotency ledger, in one process', () => {
  it('claims a key once until it expires, and fails closed when full', async () => {
    let now = 0;
    const store = new MemoryStore(() => now);
    expect(await Promise.all([store.claim('a', '1', 1000), store.claim('a', '2', 1000)])).toEqual([true, false]);
    now = 1000;
    expect(await store.claim('a', '3', 1000)).toBe(true);
    expect(await store.get('a')).toBe('3');
    for (let i = 1; i < memoryStoreLimit; i++) await store.put(`k${i}`, '1', 1000);
    await expect(store.claim('one-too-many', '1', 1000)).rejects.toThrow(StoreUnavailableError);
    now = 2000;
    expect(await store.claim('one-too-many', '1', 1000)).toBe(true);
  });

  it('runs one of 1,000 concurrent duplicates; all get its result; other arguments are refused', async () => {
    const ledger = new IdempotencyLedger(new MemoryStore(), 60_000, () => undefined);
    let runs = 0;
    const execute = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return ok(`sent ${runs}`);
    };
    const args = { to: 'ada', idempotencyKey: 'key-00000001' };
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => ledger.run(tool, args, 'alice', started(execute))),
    );
    expect(runs).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify(ok('sent 1'))]));
    expect(await ledger.recall(tool, { idempotencyKey: 'key-00000001', to: 'ada' }, 'alice')).toEqual(ok('sent 1'));
    expect(
      await ledger.run(tool, { to: 'bob', idempotencyKey: 'key-00000001' }, 'alice', started(execute)),
    ).toMatchObject({
      isError: true,
    });
    expect(await ledger.run(tool, args, 'bob', started(execute))).toEqual(ok('sent 2'));
  });

  it('answers "in progress" after a bounded wait, and fails closed when the store throws', async () => {
    const store = new MemoryStore();
    const ledger = new IdempotencyLedger(store, 60_000, () => undefined, 100);
    const slow = ledger.run(
      tool,
      { idempotencyKey: 'key-00000002' },
      'a',
      started(() => new Promise((resolve) => setTimeout(() => resolve(ok('done')), 500))),
    );
    const waiting = await ledger.run(
      tool,
      { idempotencyKey: 'key-00000002' },
      'a',
      started(async () => ok('never')),
    );
    expect(waiting).toEqual({
      content: [
        {
          type: 'text',
          text:
            'A call of "send" with this idempotencyKey is still in progress; ' +
            'nothing more was done. Retry with the same key later to get its result.',
        },
      ],
      isError: true,
    });
    expect(await slow).toEqual(ok('done'));
    const down = async (): Promise<never> => {
      throw new StoreUnavailableError('down');
    };
    const broken = new IdempotencyLedger(
      { label: 'down', claim: down, get: down, put: down, touch: down, remove: down, ping: down },
      1,
      () => undefined,
    );
    let ran = false;
    const refused = await broken.run(
      tool,
      { idempotencyKey: 'key-00000003' },
      'a',
      started(async () => {
        ran = true;
        return ok('x');
      }),
    );
    expect([ran, refused.isError]).toEqual([false, true]);
  });

  it('keeps the claim after its caller is cancelled: a retry gets the real result, the handler runs once', async () => {
    const ledger = new IdempotencyLedger(new MemoryStore(), 60_000, () => undefined);
    const first = controlled();
    const args = { idempotencyKey: 'key-00000004' };
    const cancelled = ledger.run(tool, args, 'a', first.start);
    first.cancel('user pressed stop');
    await expect(cancelled).rejects.toBe('user pressed stop');
    const rerun = counted(ok('again'));
    const retry = ledger.run(tool, args, 'a', rerun.start);
    first.settle(ok('sent once'));
    expect(await retry).toEqual(ok('sent once'));
    expect(rerun.runs()).toBe(0);
    expect(await ledger.recall(tool, args, 'a')).toEqual(ok('sent once'));
  });

  it('answers a timeout with its error, then stores the result the handler returns after it', async () => {
    const ledger = new IdempotencyLedger(new MemoryStore(), 60_000, () => undefined);
    const first = controlled();
    const args = { idempotencyKey: 'key-00000005' };
    const timedOut = ledger.run(tool, args, 'a', first.start);
    first.timeOut(ok('timed out'));
    expect(await timedOut).toEqual(ok('timed out'));
    const retry = ledger.recall(tool, args, 'a');
    first.settle(ok('late result'));
    expect(await retry).toEqual(ok('late result'));
    expect(await ledger.recall(tool, args, 'a')).toEqual(ok('late result'));
  });

  it('releases the claim when the handler stops on its aborted signal: the retry runs', async () => {
    const store = new MemoryStore();
    const ledger = new IdempotencyLedger(store, 60_000, () => undefined);
    const first = controlled();
    const args = { idempotencyKey: 'key-00000006' };
    const cancelled = ledger.run(tool, args, 'a', first.start);
    first.cancel('stop');
    first.settle(null);
    await expect(cancelled).rejects.toBe('stop');
    expect(
      await ledger.run(
        tool,
        args,
        'a',
        started(async () => ok('ran again')),
      ),
    ).toEqual(ok('ran again'));
  });
});

describe('the idempotency claim of a long handler', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is renewed while the handler runs past pendingTtlMs, and lapses once the process stops renewing it', async () => {
    vi.useFakeTimers();
    const store = new MemoryStore();
    const ledger = new IdempotencyLedger(store, 60_000, () => undefined, 1_000);
    const first = controlled();
    const args = { idempotencyKey: 'key-00000007' };
    const running = ledger.run(tool, args, 'a', first.start);
    await vi.advanceTimersByTimeAsync(pendingTtlMs * 2);
    const rerun = counted(ok('twice'));
    const duplicate = ledger.run(tool, args, 'a', rerun.start);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await duplicate).toMatchObject({ isError: true });
    expect(rerun.runs()).toBe(0);
    first.settle(ok('done'));
    expect(await running).toEqual(ok('done'));
    // A claim nobody renews (its process died) lapses after pendingTtlMs: simulated with a bare claim.
    await store.claim('lapsing', '{}', pendingTtlMs);
    await vi.advanceTimersByTimeAsync(pendingTtlMs);
    expect(await store.get('lapsing')).toBeNull();
  });
});
