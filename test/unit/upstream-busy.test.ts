import { describe, expect, it } from 'vitest';
import { ToolError } from '../../templates/runtime/handler.gen.js';
import { refuseBusy } from '../../templates/runtime/upstream-answer.gen.js';

// Which upstream answers are "try again later" (retryable tool errors), and when they say to try again.

const now = Date.UTC(2026, 11, 8, 12, 0, 0);
const busy = (status: number, headers: Record<string, string> = {}): unknown => {
  try {
    refuseBusy(status, new Headers(headers), now);
    return null;
  } catch (error) {
    return error;
  }
};
const limited = (status: number, when: string) =>
  new ToolError(
    `The upstream API limits the rate of calls and refused this one (HTTP ${status}); retry ${when}.`,
    'failed',
    true,
  );

describe('refuseBusy', () => {
  it('passes every answer below 500 but a rate refusal', () => {
    expect([200, 201, 304, 400, 401, 403, 404, 409, 410, 422, 499].map((s) => busy(s))).toEqual(Array(11).fill(null));
    expect(busy(403, { 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '1' })).toBeNull();
  });

  it('5xx: retry later, or when Retry-After says, in seconds or as an HTTP date', () => {
    expect(busy(503)).toEqual(new ToolError('The upstream API failed (HTTP 503); retry later.', 'failed', true));
    expect(busy(502, { 'retry-after': '30' })).toEqual(
      new ToolError('The upstream API failed (HTTP 502); retry in 30 s.', 'failed', true),
    );
    const date = new Date(now + 90_000).toUTCString();
    expect(busy(503, { 'retry-after': date })).toEqual(
      new ToolError('The upstream API failed (HTTP 503); retry in 90 s.', 'failed', true),
    );
  });

  it('429, and 403 with a spent x-ratelimit-remaining (GitHub), say when the limit resets', () => {
    expect(busy(429)).toEqual(limited(429, 'later'));
    expect(busy(429, { 'retry-after': '7' })).toEqual(limited(429, 'in 7 s'));
    const reset = String(now / 1000 + 120);
    expect(busy(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })).toEqual(limited(403, 'in 120 s'));
    // GitHub's secondary limits: a 403 with Retry-After, whatever the primary limit has left.
    expect(busy(403, { 'x-ratelimit-remaining': '4000', 'retry-after': '60' })).toEqual(limited(403, 'in 60 s'));
    // Retry-After comes first, before the reset of a spent primary limit.
    expect(busy(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset, 'retry-after': '60' })).toEqual(
      limited(403, 'in 60 s'),
    );
  });

  it('a time that is past, unreadable or missing says later', () => {
    expect(busy(429, { 'retry-after': new Date(now - 5_000).toUTCString() })).toEqual(limited(429, 'later'));
    expect(busy(429, { 'retry-after': 'soon' })).toEqual(limited(429, 'later'));
    expect(busy(429, { 'retry-after': '0' })).toEqual(limited(429, 'later'));
    expect(busy(403, { 'x-ratelimit-remaining': '0' })).toEqual(limited(403, 'later'));
    expect(busy(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': 'x' })).toEqual(limited(403, 'later'));
  });
});
