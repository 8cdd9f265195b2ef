import type { ToolHandler } from '../../generated/index.gen.js';
import { searchNotes } from '../../lib/store.js';

/**
 * Handler of tool "search_notes".
 *
 * Search notes
 *
 * Find notes whose title or body contains the query. Returns at most `limit` notes, newest first.
 * `limit` has a default in the manifest, so it is always set here.
 */
export const searchNotesHandler: ToolHandler<'search_notes'> = async (input) => ({
  notes: searchNotes(input.query, input.limit).map((note) => ({ id: note.id, title: note.title })),
});
