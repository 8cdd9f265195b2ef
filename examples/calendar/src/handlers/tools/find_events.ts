import { ToolError, type ToolHandler } from '../../generated/index.gen.js';
import { eventsBetween, parseDay } from '../../lib/store.js';

/**
 * Handler of tool "find_events".
 *
 * Find events: scheduled events starting in [from, to) (UTC days), earliest first.
 */
export const findEventsHandler: ToolHandler<'find_events'> = async (input) => {
  const from = parseDay(input.from);
  const to = parseDay(input.to);
  if (from === null || to === null) throw new ToolError('from and to must be real dates, YYYY-MM-DD.');
  if (to.getTime() <= from.getTime()) throw new ToolError(`to (${input.to}) must be after from (${input.from}); to is the first day NOT included.`);
  return { events: eventsBetween(from, to, input.limit ?? 20) };
};
