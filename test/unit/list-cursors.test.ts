import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cursorLifetimeMs, openCursor, sealCursor } from '../../templates/runtime/dynamic.gen.js';

// The sealed cursors of dynamic lists (templates/runtime/dynamic.gen.ts): bound to the principal that listed, expiring
// an hour after their page was sent, and encrypted, so a client reads neither the handler's cursor nor its position.

const key = randomBytes(32);
const now = Date.UTC(2026, 11, 4, 12, 0, 0);

/** The error `open` throws, as code, message and data. */
function refusal(open: () => unknown) {
  try {
    open();
  } catch (error) {
    if (error instanceof ProtocolError) return { code: error.code, message: error.message, data: error.data };
    throw error;
  }
  throw new Error('the cursor was accepted');
}
const invalid = (cursor: string, why = '') => ({
  code: ProtocolErrorCode.InvalidParams,
  message: `Invalid cursor for resources/list${why}`,
  data: { cursor },
});

describe('sealed list cursors', () => {
  it('open for the principal that listed, before they expire', () => {
    const cursor = sealCursor(key, [1, 'offset=200'], 'alice', now);
    expect(openCursor(key, cursor, 2, 'alice', now)).toEqual([1, 'offset=200']);
    expect(openCursor(key, cursor, 2, 'alice', now + cursorLifetimeMs - 1)).toEqual([1, 'offset=200']);
    expect(openCursor(key, sealCursor(key, [0, null], 'anonymous', now), 1, 'anonymous', now)).toEqual([0, null]);
    expect(cursorLifetimeMs).toBe(3_600_000);
  });

  it('a cursor from another principal is -32602', () => {
    const cursor = sealCursor(key, [0, 'offset=100'], 'alice', now);
    expect(refusal(() => openCursor(key, cursor, 1, 'mallory', now))).toEqual(
      invalid(cursor, ': it was issued to another caller; list again from the start'),
    );
    expect(refusal(() => openCursor(key, cursor, 1, 'anonymous', now))).toEqual(
      invalid(cursor, ': it was issued to another caller; list again from the start'),
    );
  });

  it('a cursor past its expiry is -32602', () => {
    const cursor = sealCursor(key, [0, 'offset=100'], 'alice', now);
    expect(refusal(() => openCursor(key, cursor, 1, 'alice', now + cursorLifetimeMs))).toEqual(
      invalid(cursor, ': it expired; list again from the start'),
    );
  });

  it('the payload is not readable as base64 JSON, and equal positions seal differently', () => {
    const cursor = sealCursor(key, [0, 'handler-secret-offset'], 'alice', now);
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(decoded).not.toContain('handler-secret-offset');
    expect(decoded).not.toContain('alice');
    expect(() => JSON.parse(decoded)).toThrow(SyntaxError);
    expect(() => JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'))).toThrow(SyntaxError);
    expect(sealCursor(key, [0, 'handler-secret-offset'], 'alice', now)).not.toBe(cursor);
  });

  it('a cursor it did not seal, an edited one, one cut short or sealed with another key is -32602', () => {
    const cursor = sealCursor(key, [0, '100'], 'alice', now);
    const bytes = Buffer.from(cursor, 'base64url');
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 1] = (flipped[bytes.length - 1] ?? 0) ^ 1;
    const forgedOldFormat = `${Buffer.from(JSON.stringify([0, '200'])).toString('base64url')}.AAAA`;
    for (const bad of [
      'not-a-cursor',
      '',
      forgedOldFormat,
      `${cursor}.x`,
      `${cursor}=`,
      flipped.toString('base64url'),
      bytes.subarray(0, 27).toString('base64url'),
      Buffer.concat([bytes.subarray(0, 12), bytes.subarray(12, 20), bytes.subarray(28)]).toString('base64url'),
      sealCursor(randomBytes(32), [0, '100'], 'alice', now),
    ])
      expect(refusal(() => openCursor(key, bad, 1, 'alice', now))).toEqual(invalid(bad));
    // A position past the listed templates (the server was regenerated with fewer of them).
    const far = sealCursor(key, [3, null], 'alice', now);
    expect(refusal(() => openCursor(key, far, 2, 'alice', now))).toEqual(invalid(far));
  });
});
