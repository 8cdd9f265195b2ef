import { notImplemented, type ToolHandler } from '../../generated/index.gen.js';

/**
 * Handler of tool "search_notes".
 *
 * Search notes
 *
 * Find notes whose title or body contains the query. Returns at most `limit` notes, newest first.
 */
export const searchNotesHandler: ToolHandler<'search_notes'> = async (input, ctx) => {
  // Your code goes here: mcp-gen never overwrites this file.
  throw notImplemented('tool', 'search_notes');
};
