import type { ToolHandler } from '../../generated/index.gen.js';
import { publishNoteDraft } from '../../lib/store.js';

/**
 * Handler of tool "publish_note_draft".
 *
 * Publish a note draft
 *
 * Publish the draft so the whole team sees it. Cannot be undone. Runs only after the user confirmed
 * this exact call (approval: confirm); `input.draft` arrives verified, its id is `input.draft.id`.
 */
export const publishNoteDraftHandler: ToolHandler<'publish_note_draft'> = async (input, ctx) => {
  const note = publishNoteDraft(input.draft.id, ctx.principal.id);
  return `Published "${note.title}" as notes://notes/${note.id}.`;
};
