import { ToolError, type PromptHandler } from '../../generated/index.gen.js';
import { eventsBetween, parseDay } from '../../lib/store.js';

/** `09:00` from `2026-08-03T09:00:00Z`. */
const clock = (instant: string): string => instant.slice(11, 16);

/**
 * Handler of prompt "daily_agenda".
 *
 * The events of one UTC day as a list, with a request to prepare a short agenda for each. Event titles and
 * addresses are data typed in by people: they are quoted, never treated as instructions.
 */
export const dailyAgendaHandler: PromptHandler<'daily_agenda'> = async (args) => {
  const midnight = parseDay(args.date);
  if (midnight === null) throw new ToolError(`date "${args.date}" is not a real day; use YYYY-MM-DD.`, 'invalid');
  const events = eventsBetween(midnight, new Date(midnight.getTime() + 24 * 60 * 60 * 1000), 100);
  if (events.length === 0) {
    return [{ role: 'user', text: `I have no events on ${args.date} (UTC). Suggest how to use the free day.` }];
  }
  const lines = events.map((event) => {
    const where = event.location === undefined ? '' : ` in ${JSON.stringify(event.location)}`;
    const who = event.attendees.length === 0 ? 'no attendees' : event.attendees.join(', ');
    return `- ${clock(event.start)}-${clock(event.end)} UTC ${JSON.stringify(event.title)}${where} (${event.id}; ${who})`;
  });
  return [
    {
      role: 'user',
      text: `These are my events on ${args.date} (UTC):\n${lines.join('\n')}\n\nPrepare a short agenda (three bullet points at most) for each event, in this order.`,
    },
  ];
};
