import type { ToolHandler } from '../../generated/index.gen.js';

/**
 * Handler of tool "search_books".
 *
 * Search books
 *
 * Find books whose title or author contains `query` (case-insensitive), ordered by title. `input.limit`
 * arrives with its default (5) when the client left it out. The query is a bound parameter, and its LIKE
 * wildcards are escaped, so `%` finds a percent sign.
 */
export const searchBooksHandler: ToolHandler<'search_books'> = async (input, ctx) => {
  const pattern = `%${input.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await ctx.services.pool.query<{ id: string; title: string; author: string; available: boolean }>(
    `SELECT id, title, author, available FROM books
      WHERE title ILIKE $1 OR author ILIKE $1
      ORDER BY title COLLATE "C", id LIMIT $2`,
    [pattern, input.limit],
  );
  return { books: rows };
};
