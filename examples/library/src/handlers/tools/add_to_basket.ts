import { ToolError, type ToolHandler } from '../../generated/index.gen.js';
import { inTransaction } from '../../lib/db.js';
import { openBasket } from '../../lib/basket.js';

/**
 * Handler of tool "add_to_basket".
 *
 * Add a book to a basket
 *
 * Put a book that can be borrowed now into the basket. `input.basket` arrives verified (a "basket" handle
 * issued to this caller); its id is the basket's uuid. Adding a book twice changes nothing.
 */
export const addToBasketHandler: ToolHandler<'add_to_basket'> = async (input, ctx) =>
  inTransaction(ctx.services.pool, async (client) => {
    await openBasket(client, input.basket.id);
    const book = await client.query<{ available: boolean }>('SELECT available FROM books WHERE id = $1', [
      input.book_id,
    ]);
    const found = book.rows[0];
    if (found === undefined) throw new ToolError(`No book has the id "${input.book_id}".`, 'not_found');
    if (!found.available) throw new ToolError(`Book ${input.book_id} is on loan.`, 'conflict');
    await client.query('INSERT INTO basket_items (basket_id, book_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      input.basket.id,
      input.book_id,
    ]);
    const items = await client.query<{ book_id: string }>(
      'SELECT book_id FROM basket_items WHERE basket_id = $1 ORDER BY book_id',
      [input.basket.id],
    );
    return { books: items.rows.map((row) => row.book_id) };
  });
