import type { ResourceCompleteHandler } from '../../../generated/index.gen.js';
import { allNotes } from '../../../lib/store.js';

/** Completion handler of resource "note": the ids of the notes that start with what the user typed. */
export const noteCompleteHandler: ResourceCompleteHandler<'note'> = async ({ value }) =>
  allNotes()
    .map((note) => note.id)
    .filter((id) => id.startsWith(value));
