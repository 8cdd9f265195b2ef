import type { ToolHandler } from '../../generated/index.gen.js';
import { addAttendee } from '../../lib/store.js';

/**
 * Handler of tool "add_attendee".
 *
 * Add an attendee to a draft. The `draft` handle arrives verified (signature, kind, principal, expiry).
 */
export const addAttendeeHandler: ToolHandler<'add_attendee'> = async (input, ctx) => ({
  attendees: addAttendee(input.draft.id, ctx.principal.id, input.email),
});
