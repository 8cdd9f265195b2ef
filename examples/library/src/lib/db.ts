import pg from 'pg';

/**
 * The library's tables, in one PostgreSQL schema: `library` when serving, `library_test` under the contract
 * tests. Every connection of the pool has its schema as search_path, so the handlers' SQL names no schema.
 */
export const schemaFor = (mode: 'serve' | 'test'): string => (mode === 'test' ? 'library_test' : 'library');

const tables = `
CREATE TABLE IF NOT EXISTS members (id text PRIMARY KEY, name text NOT NULL);
CREATE TABLE IF NOT EXISTS books (
  id text PRIMARY KEY, title text NOT NULL, author text NOT NULL, available boolean NOT NULL DEFAULT true
);
CREATE SEQUENCE IF NOT EXISTS loan_numbers START 1003;
CREATE TABLE IF NOT EXISTS loans (
  id text PRIMARY KEY DEFAULT 'L-' || nextval('loan_numbers'),
  book_id text NOT NULL REFERENCES books,
  member_id text NOT NULL REFERENCES members,
  due date NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'returned', 'cancelled'))
);
CREATE TABLE IF NOT EXISTS baskets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_id text NOT NULL REFERENCES members,
  checked_out boolean NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS basket_items (
  basket_id uuid NOT NULL REFERENCES baskets ON DELETE CASCADE,
  book_id text NOT NULL REFERENCES books,
  PRIMARY KEY (basket_id, book_id)
);`;

// A new library starts with these rows; the contract tests' examples expect exactly them.
const seed = `
INSERT INTO members (id, name) VALUES ('M-001', 'Ada Reader'), ('M-002', 'Ben Page');
INSERT INTO books (id, title, author, available) VALUES
  ('B-001', 'The Dispossessed', 'Ursula K. Le Guin', true),
  ('B-002', 'A Wizard of Earthsea', 'Ursula K. Le Guin', false),
  ('B-003', 'Kindred', 'Octavia E. Butler', true),
  ('B-004', 'Robinson Crusoe', 'Daniel Defoe', false);
INSERT INTO loans (id, book_id, member_id, due) VALUES
  ('L-1001', 'B-002', 'M-001', '2026-09-01'),
  ('L-1002', 'B-004', 'M-002', '2026-09-15');`;

/** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Opens the pool on `schema`, creating the schema and its tables when missing (a fresh database works) and
 * seeding an empty library. `fresh` drops the schema first: the test schema starts from the seed every run.
 */
export async function openLibrary(url: string, schema: string, fresh: boolean): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: 5, options: `-c search_path=${schema}` });
  try {
    await inTransaction(pool, async (client) => {
      // One server at a time changes the schema: two starting at once would race on CREATE.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('mcp-gen library schema'))");
      if (fresh) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(tables);
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM books');
      if (rows[0]?.n === '0') await client.query(seed);
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

