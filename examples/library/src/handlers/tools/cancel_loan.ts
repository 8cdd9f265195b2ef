import { ToolError, type ToolHandler } from '../../generated/index.gen.js';
import { inTransaction } from '../../lib/db.js';

/**
 * Handler of tool "cancel_loan".
 *
 * Cancel a loan
 *
 * Runs only after the user confirmed this exact call (approval: confirm). The loan's row and its book's row
 * change in ONE transaction: a loan is never cancelled while its book stays unavailable.
 */
export const cancelLoanHandler: ToolHandler<'cancel_loan'> = async (input, ctx) =>
  inTransaction(ctx.services.pool, async (client) => {
    const { rows } = await client.query<{ book_id: string }>(
      "UPDATE loans SET status = 'cancelled' WHERE id = $1 AND status = 'active' RETURNING book_id",
      [input.loan_id],
    );
    const loan = rows[0];
    if (loan === undefined) throw new ToolError(`No active loan has the id "${input.loan_id}".`, 'not_found');
    await client.query('UPDATE books SET available = true WHERE id = $1', [loan.book_id]);
    return { loan_id: input.loan_id, book_id: loan.book_id, status: 'cancelled' as const };
  });
