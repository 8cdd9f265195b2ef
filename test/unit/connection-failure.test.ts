import { describe, expect, it } from 'vitest';
import { isConnectionFailure, ToolError } from '../../templates/runtime/handler.gen.js';

// Which errors a handler throws are connection failures: the tool's error result then carries the retryable flag.

const coded = (code: string, message = `connect ${code} 127.0.0.1:5432`) => Object.assign(new Error(message), { code });

describe('isConnectionFailure', () => {
  it('knows the socket and DNS codes of Node and undici', () => {
    const codes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'];
    expect(codes.map((code) => isConnectionFailure(coded(code)))).toEqual(codes.map(() => true));
    expect(isConnectionFailure(coded('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'))).toBe(true);
  });

  it("knows PostgreSQL's connection SQLSTATEs and no other", () => {
    const codes = ['08006', '08001', '57P01', '57P03', '23505', '42P01', '40001', '0800'];
    expect(codes.map((code) => isConnectionFailure(coded(code, 'pg')))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('knows what pg and the Redis clients throw without a code', () => {
    const thrown = [
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection is closed.'),
      Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }),
      Object.assign(new Error('Socket closed unexpectedly'), { name: 'SocketClosedUnexpectedlyError' }),
    ];
    expect(thrown.map((error) => isConnectionFailure(error))).toEqual([true, true, true, true, true]);
  });

  it('follows the cause chain and the errors of an AggregateError (fetch failed, happy eyeballs)', () => {
    expect(isConnectionFailure(new TypeError('fetch failed', { cause: coded('ECONNREFUSED') }))).toBe(true);
    const wrapped = new Error('query failed', { cause: new Error('pool', { cause: coded('ECONNRESET') }) });
    expect(isConnectionFailure(wrapped)).toBe(true);
    expect(isConnectionFailure(new AggregateError([new Error('x'), coded('ECONNREFUSED')], 'connect'))).toBe(true);
  });

  it('is false for anything else, and for a cycle of causes', () => {
    const cycle: Error & { cause?: unknown } = new Error('a');
    cycle.cause = cycle;
    const others = [
      new Error('boom'),
      new ToolError('Book B-404 not found.', 'not_found'),
      coded('ENOENT', 'no such file'),
      Object.assign(new Error('x'), { code: 404 }),
      'ECONNREFUSED',
      null,
      undefined,
      cycle,
    ];
    expect(others.map((error) => isConnectionFailure(error))).toEqual(others.map(() => false));
  });
});
