import type { ToolHandler } from '../../generated/index.gen.js';
import { scheduleDraft } from '../../lib/store.js';

/**
 * Handler of tool "schedule_event".
 *
 * Schedule an event: the draft becomes an event with a new id; the same draft cannot be scheduled twice.
 */
export const scheduleEventHandler: ToolHandler<'schedule_event'> = async (input, ctx) => ({
  event: scheduleDraft(input.draft.id, ctx.principal.id),
});
