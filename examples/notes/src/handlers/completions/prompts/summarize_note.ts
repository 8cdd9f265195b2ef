import type { PromptCompleteHandler } from '../../../generated/index.gen.js';
import { allNotes } from '../../../lib/store.js';

/** Completion handler of prompt "summarize_note": `note_id` from the published notes, newest first. */
export const summarizeNoteCompleteHandler: PromptCompleteHandler<'summarize_note'> = async ({ value }) =>
  allNotes()
    .reverse()
    .map((note) => note.id)
    .filter((id) => id.startsWith(value));
