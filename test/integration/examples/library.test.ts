import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPostgres, startPostgres } from '../../support/postgres.js';
import { compileExample, connectStdio, type Elicitor, textOf } from './support.js';

// examples/library against a real PostgreSQL (a throwaway cluster): its tools change several rows in one
// transaction, so a checkout that cannot lend every book lends none, two checkouts racing for one book lend it
// once, and cancel_loan (after the user's yes) ends the loan and frees the book together.

let postgres: RunningPostgres;
let client: Client;
const elicitor: Elicitor = { answer: { action: 'decline' }, seen: [] };
const q = (sql: string) => postgres.query('library', `SET search_path = library; ${sql}`);

beforeAll(async () => {
  postgres = await startPostgres();
  const url = postgres.createDatabase('library');
  client = await connectStdio(compileExample('library', 'library'), elicitor, { LIBRARY_DATABASE_URL: url });
}, 180_000);

afterAll(async () => {
  await client?.close();
  postgres?.stop();
}, 60_000);

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, data: result.structuredContent as Record<string, any>, result };
}

async function basketWith(member: string, books: string[]): Promise<string> {
  const basket = (await call('start_basket', { member })).data.basket as string;
  for (const book of books) expect((await call('add_to_basket', { basket, book_id: book })).isError).toBe(false);
  return basket;
}

describe('examples/library on PostgreSQL', () => {
  it('a checkout that cannot lend every book lends none of them', async () => {
    const both = await basketWith('M-001', ['B-001', 'B-003']);
    const one = await basketWith('M-002', ['B-003']);
    const lent = await call('checkout_basket', { basket: one });
    expect(lent.data.loans.map((loan: { id: string; book_id: string }) => [loan.id, loan.book_id])).toEqual([
      ['L-1003', 'B-003'],
    ]);
    const refused = await call('checkout_basket', { basket: both });
    expect([refused.isError, textOf(refused.result)]).toEqual([true, 'Already on loan: B-003.']);
    // Rolled back: B-001 is still on the shelf, its basket still open, no loan row was added.
    expect(q("SELECT available FROM books WHERE id = 'B-001'")).toBe('t\n');
    expect(q('SELECT id, book_id, member_id, status FROM loans ORDER BY id')).toBe(
      'L-1001|B-002|M-001|active\nL-1002|B-004|M-002|active\nL-1003|B-003|M-002|active\n',
    );
    expect(q('SELECT count(*) FROM baskets WHERE checked_out')).toBe('1\n');
  });

  it('two checkouts racing for one book lend it once', async () => {
    const first = await basketWith('M-001', ['B-001']);
    const second = await basketWith('M-002', ['B-001']);
    const results = await Promise.all([first, second].map((basket) => call('checkout_basket', { basket })));
    expect(results.map((r) => r.isError).sort()).toEqual([false, true]);
    expect(
      q(
        "SELECT count(*), bool_or(b.available) FROM loans l JOIN books b ON b.id = l.book_id WHERE l.book_id = 'B-001'",
      ),
    ).toBe('1|f\n');
  });

  it('cancel_loan asks first; after a yes it ends the loan and frees the book in one transaction', async () => {
    elicitor.answer = { action: 'decline' };
    const declined = await call('cancel_loan', { loan_id: 'L-1001' });
    expect(textOf(declined.result)).toMatch(/declined/);
    expect(q("SELECT status FROM loans WHERE id = 'L-1001'")).toBe('active\n');
    elicitor.answer = { action: 'accept', content: { confirm: true } };
    const cancelled = await call('cancel_loan', { loan_id: 'L-1001' });
    expect(cancelled.data).toEqual({ loan_id: 'L-1001', book_id: 'B-002', status: 'cancelled' });
    expect(q("SELECT l.status, b.available FROM loans l JOIN books b ON b.id = l.book_id WHERE l.id = 'L-1001'")).toBe(
      'cancelled|t\n',
    );
    const again = await call('cancel_loan', { loan_id: 'L-1001' });
    expect([again.isError, textOf(again.result)]).toEqual([true, 'No active loan has the id "L-1001".']);
  });
});
