import type { ToolHandler } from '../../generated/index.gen.js';
import { deleteEvent } from '../../lib/store.js';

/**
 * Handler of tool "delete_event".
 *
 * Delete an event. Runs only after the user confirmed this exact call (approval: confirm).
 */
export const deleteEventHandler: ToolHandler<'delete_event'> = async (input, ctx) => {
  const event = deleteEvent(input.id);
  ctx.log(`calendar: ${ctx.principal.id} deleted ${event.id}`);
  return `Deleted event ${event.id} "${event.title}" (${event.start}).`;
};
