import { ToolError, type ResourceListHandler } from '../../generated/index.gen.js';
import { allNotes } from '../../lib/store.js';

/**
 * List handler of resource "note": every published note, oldest first, `pageSize` at a time. The cursor is
 * the offset of the next page; the runtime seals it, so a client never sees or forges it.
 */
export const noteListHandler: ResourceListHandler<'note'> = async ({ cursor, pageSize }) => {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(start) || start < 0) throw new ToolError(`Bad list cursor "${cursor}".`, 'invalid');
  const notes = allNotes();
  const page = notes.slice(start, start + pageSize).map((note) => ({ uri: `notes://notes/${note.id}`, name: note.title }));
  return start + pageSize < notes.length ? { resources: page, nextCursor: String(start + pageSize) } : { resources: page };
};
