import { ToolError, type ResourceHandler } from '../../generated/index.gen.js';

/**
 * Handler of resource "book".
 *
 * One book with its active loan (or null), as JSON. An unknown id is the spec's "Resource not found".
 */
export const bookHandler: ResourceHandler<'book'> = async (_uri, variables, ctx) => {
  const { rows } = await ctx.services.pool.query<Record<string, unknown>>(
    `SELECT b.id, b.title, b.author, b.available,
            (SELECT json_build_object('id', l.id, 'member', l.member_id, 'due', to_char(l.due, 'YYYY-MM-DD'))
               FROM loans l WHERE l.book_id = b.id AND l.status = 'active') AS loan
       FROM books b WHERE b.id = $1`,
    [variables.id],
  );
  const book = rows[0];
  if (book === undefined) throw new ToolError(`No book has the id "${variables.id}".`, 'not_found');
  return JSON.stringify(book);
};
