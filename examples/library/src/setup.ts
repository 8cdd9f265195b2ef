import { openLibrary, schemaFor } from './lib/db.js';
import type { Config, ReadyChecks, Services, SetupTools } from './generated/index.gen.js';

/**
 * Runs once, before the server answers its first request: opens the connection pool (and creates the
 * schema on a fresh database). Under the contract tests (`tools.mode === 'test'`) it works in the schema
 * `library_test` instead, recreated from the seed rows at every start, so `npm test` never reads or
 * changes the library's own data. A database it cannot reach stops the server (exit code 1).
 */
export async function setup(config: Config, tools: SetupTools) {
  const schema = schemaFor(tools.mode);
  const pool = await openLibrary(config.LIBRARY_DATABASE_URL, schema, tools.mode === 'test');
  // A pooled connection the database closes while idle (a restart) is dropped from the pool; the next
  // query opens a new one. Without a listener, that error would end the process.
  pool.on('error', (error) => tools.log(`library: an idle database connection failed: ${error.message}`));
  tools.log(`library: connected to PostgreSQL, schema ${schema}`);
  return { pool, loanDays: config.LIBRARY_LOAN_DAYS, log: tools.log };
}

/**
 * What `/readyz` checks (over HTTP) besides the server itself: the database answers a query. While it
 * does not, `/readyz` answers 503 with this reason, and 200 again once it does; the calls made meanwhile
 * fail with the retryable flag.
 */
export const ready: ReadyChecks = {
  database: ({ pool }) =>
    pool.query('SELECT 1').then(
      () => true,
      () => 'PostgreSQL does not answer',
    ),
};

/** Runs once at shutdown (stdin closed, SIGTERM, SIGINT), after the calls in flight: closes the pool. */
export async function teardown(services: Services): Promise<void> {
  await services.pool.end();
  services.log('library: connection pool closed');
}
