import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPostgres, startPostgres } from '../../support/postgres.js';
import { envelope, get, rpc, startHttpServer, type RunningServer } from '../runtime/harness.js';
import { compileExample } from './support.js';

// examples/library over HTTP against a real PostgreSQL that is stopped and started again: the `database` check its
// src/setup.ts exports turns /readyz 503 (naming the check and its reason) while PostgreSQL is down and 200 once it
// is back, and a call made meanwhile fails with the retryable flag, then succeeds again.

let postgres: RunningPostgres;
let server: RunningServer;

beforeAll(async () => {
  postgres = await startPostgres();
  const url = postgres.createDatabase('library');
  server = await startHttpServer(compileExample('library', 'readiness'), { LIBRARY_DATABASE_URL: url });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  postgres?.stop();
}, 120_000);

const readyz = async () => {
  const answer = await get(new URL('/readyz', server.url));
  return [answer.status, answer.body];
};

/** Asks /readyz until it answers `status` (bounded), and returns its last answer. */
async function readyzUntil(status: number) {
  let answer = await readyz();
  for (const end = Date.now() + 60_000; answer[0] !== status && Date.now() < end; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await readyz();
  }
  return answer;
}

const search = async () =>
  (
    await rpc(server.url, 'tools/call', {
      name: 'search_books',
      arguments: { query: 'crusoe' },
      _meta: envelope(),
    })
  ).body.result;

const ready = { status: 'ok', checks: { startup: 'ok', store: 'ok', database: 'ok', shutdown: 'ok' } };

describe('examples/library: /readyz follows PostgreSQL', () => {
  it('answers 200 while PostgreSQL answers, 503 while it is stopped, 200 again once it is started', async () => {
    expect(await readyz()).toEqual([200, ready]);
    expect((await search()).structuredContent).toEqual({
      books: [{ id: 'B-004', title: 'Robinson Crusoe', author: 'Daniel Defoe', available: false }],
    });

    postgres.pause();
    expect(await readyzUntil(503)).toEqual([
      503,
      {
        status: 'unavailable',
        checks: { ...ready.checks, database: 'down' },
        reasons: { database: 'PostgreSQL does not answer' },
      },
    ]);
    const failed = await search();
    expect([failed.isError, failed._meta['mcp-gen/error']]).toEqual([true, { retryable: true }]);
    expect(server.stderr()).toContain('readyz: check "database" is down: PostgreSQL does not answer\n');

    postgres.resume();
    expect(await readyzUntil(200)).toEqual([200, ready]);
    expect(server.stderr()).toContain('readyz: check "database" is ok again\n');
    expect((await search()).structuredContent).toEqual({
      books: [{ id: 'B-004', title: 'Robinson Crusoe', author: 'Daniel Defoe', available: false }],
    });
  }, 180_000);
});
