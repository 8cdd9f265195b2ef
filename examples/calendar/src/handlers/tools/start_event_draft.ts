import { ToolError, type ToolHandler } from '../../generated/index.gen.js';
import { createDraft } from '../../lib/store.js';

/**
 * Handler of tool "start_event_draft".
 *
 * Start an event draft: nothing is on the calendar yet. The draft lives in memory under a random id;
 * the client only ever sees the signed `event_draft` handle wrapping that id, bound to the caller.
 */
export const startEventDraftHandler: ToolHandler<'start_event_draft'> = async (input, ctx) => {
  const start = new Date(input.start);
  if (Number.isNaN(start.getTime())) throw new ToolError(`start "${input.start}" is not a valid time; use RFC 3339, e.g. 2026-08-03T09:30:00Z.`);
  const id = createDraft(ctx.principal.id, input.title, start, input.durationMinutes, input.location);
  return { draft: ctx.handles.event_draft.issue(id) };
};
