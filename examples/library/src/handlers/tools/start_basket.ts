import { ToolError, type ToolHandler } from '../../generated/index.gen.js';

/**
 * Handler of tool "start_basket".
 *
 * Start a basket
 *
 * Open an empty basket for a member. The client gets a signed handle wrapping the basket's uuid, bound to
 * the caller; the basket's books are rows of basket_items.
 */
export const startBasketHandler: ToolHandler<'start_basket'> = async (input, ctx) => {
  const { rows } = await ctx.services.pool.query<{ id: string }>(
    'INSERT INTO baskets (member_id) SELECT id FROM members WHERE id = $1 RETURNING id',
    [input.member],
  );
  const basket = rows[0];
  if (basket === undefined) throw new ToolError(`No member has the id "${input.member}".`, 'not_found');
  return { basket: ctx.handles.basket.issue(basket.id) };
};
