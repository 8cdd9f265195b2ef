import type pg from 'pg';
import { ToolError } from '../generated/index.gen.js';

/**
 * Locks the basket's row for this transaction and returns its member; a basket already checked out is an
 * error. The handle proves the caller was given this basket, the row says whether it is still open.
 */
export async function openBasket(client: pg.PoolClient, id: string): Promise<string> {
  const { rows } = await client.query<{ member_id: string; checked_out: boolean }>(
    'SELECT member_id, checked_out FROM baskets WHERE id = $1 FOR UPDATE',
    [id],
  );
  const basket = rows[0];
  if (basket === undefined) throw new ToolError('This basket no longer exists.', 'not_found');
  if (basket.checked_out) throw new ToolError('This basket was already checked out.', 'conflict');
  return basket.member_id;
}
