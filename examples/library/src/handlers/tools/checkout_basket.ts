import { ToolError, type ToolHandler } from '../../generated/index.gen.js';
import { openBasket } from '../../lib/basket.js';
import { inTransaction } from '../../lib/db.js';

/**
 * Handler of tool "checkout_basket".
 *
 * Check out a basket
 *
 * Lends every book in the basket in ONE transaction: each book's row becomes unavailable, each gets a loan
 * row, and the basket is marked checked out. If any book was lent meanwhile, nothing changes.
 */
export const checkoutBasketHandler: ToolHandler<'checkout_basket'> = async (input, ctx) =>
  inTransaction(ctx.services.pool, async (client) => {
    const member = await openBasket(client, input.basket.id);
    const books = await client.query<{ id: string; available: boolean }>(
      `SELECT b.id, b.available FROM books b JOIN basket_items i ON i.book_id = b.id
        WHERE i.basket_id = $1 ORDER BY b.id FOR UPDATE OF b`,
      [input.basket.id],
    );
    if (books.rows.length === 0) throw new ToolError('The basket is empty: add_to_basket first.', 'invalid');
    const taken = books.rows.filter((book) => !book.available).map((book) => book.id);
    if (taken.length > 0) throw new ToolError(`Already on loan: ${taken.join(', ')}.`, 'conflict');
    const loans = [];
    for (const book of books.rows) {
      await client.query('UPDATE books SET available = false WHERE id = $1', [book.id]);
      const loan = await client.query<{ id: string; due: string }>(
        `INSERT INTO loans (book_id, member_id, due) VALUES ($1, $2, current_date + $3::int)
         RETURNING id, to_char(due, 'YYYY-MM-DD') AS due`,
        [book.id, member, ctx.services.loanDays],
      );
      const row = loan.rows[0];
      if (row !== undefined) loans.push({ id: row.id, book_id: book.id, due: row.due });
    }
    await client.query('UPDATE baskets SET checked_out = true WHERE id = $1', [input.basket.id]);
    return { loans };
  });
