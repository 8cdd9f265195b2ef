import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { ToolRun } from '../../templates/runtime/hooks.gen.js';
import { IdempotencyLedger } from '../../templates/runtime/idempotency.gen.js';
import type { ToolSpec } from '../../templates/runtime/spec.gen.js';
import { MemoryStore } from '../../templates/runtime/store.gen.js';

// What a retry with the key of a call that failed "retry later" gets: the stored failure, which this key will get
// again until it expires, so it is no longer marked retryable and says how to try again.

const tool = { name: 'send', idempotency: 'key' } as unknown as ToolSpec;
const once = (result: CallToolResult) => (): ToolRun => ({
  outcome: Promise.resolve(result),
  interruption: new Promise<never>(() => undefined),
});
const failure = (text: string, meta?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
  ...(meta === undefined ? {} : { _meta: meta }),
});
const note =
  'This is the stored result of the first call with this idempotencyKey: a retry with the same key gets it again. ' +
  'To try again, use a new key.';

describe('a stored retryable failure', () => {
  it('reaches its own caller as it was; a retry with the key gets it unmarked, with a note', async () => {
    const ledger = new IdempotencyLedger(new MemoryStore(), 60_000, () => undefined);
    const busy = failure('The upstream API failed (HTTP 503); retry later.', {
      'mcp-gen/error': { retryable: true },
      'mcp-gen/warnings': ['kept'],
    });
    const args = { to: 'ada', idempotencyKey: 'key-00000001' };
    expect(await ledger.run(tool, args, 'alice', once(busy))).toEqual(busy);
    const expected = {
      content: [
        { type: 'text', text: 'The upstream API failed (HTTP 503); retry later.' },
        { type: 'text', text: note },
      ],
      isError: true,
      _meta: { 'mcp-gen/warnings': ['kept'] },
    };
    expect(await ledger.run(tool, args, 'alice', once(failure('ran again')))).toEqual(expected);
    expect(await ledger.recall(tool, args, 'alice')).toEqual(expected);
  });

  it('without other _meta the copy has none; a failure that is not retryable is replayed as stored', async () => {
    const ledger = new IdempotencyLedger(new MemoryStore(), 60_000, () => undefined);
    const down = failure('The upstream API could not be reached; retry later.', {
      'mcp-gen/error': { retryable: true },
    });
    await ledger.run(tool, { idempotencyKey: 'key-00000002' }, 'a', once(down));
    expect(await ledger.recall(tool, { idempotencyKey: 'key-00000002' }, 'a')).toEqual({
      content: [...down.content, { type: 'text', text: note }],
      isError: true,
    });
    const refused = failure('The upstream API refused the call (HTTP 410): "gone"');
    await ledger.run(tool, { idempotencyKey: 'key-00000003' }, 'a', once(refused));
    expect(await ledger.recall(tool, { idempotencyKey: 'key-00000003' }, 'a')).toEqual(refused);
  });
});
