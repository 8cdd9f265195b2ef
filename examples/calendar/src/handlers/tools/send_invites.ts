import type { ToolHandler } from '../../generated/index.gen.js';
import { sendInvites } from '../../lib/store.js';

/**
 * Handler of tool "send_invites".
 *
 * Send invitations: one per attendee, recorded in the in-memory outbox (this example sends no mail).
 * Runs only after the user confirmed this exact call (approval: confirm).
 */
export const sendInvitesHandler: ToolHandler<'send_invites'> = async (input, ctx) => ({
  eventId: input.id,
  sentTo: sendInvites(input.id, ctx.principal.id),
});
