import type { ToolHandler } from '../../generated/index.gen.js';
import { startNoteDraft } from '../../lib/store.js';

/**
 * Handler of tool "start_note_draft".
 *
 * Start a note draft
 *
 * Open a new draft. Returns a draft handle to pass to the other draft tools. The client sees only the
 * signed handle wrapping the draft's id, bound to the caller.
 */
export const startNoteDraftHandler: ToolHandler<'start_note_draft'> = async (input, ctx) => ({
  draft: ctx.handles.note_draft.issue(startNoteDraft(ctx.principal.id, input.title)),
});
