import { ResourceNotFoundError, type ResourceHandler } from '../../generated/index.gen.js';
import { eventsBetween, parseDay } from '../../lib/store.js';

/** At most this many events are listed for one day. */
const maxEventsPerDay = 100;

/**
 * Handler of resource "day".
 *
 * Every event starting on one UTC day, earliest first, as JSON `{ date, events }`. A date that is not a real
 * `YYYY-MM-DD` day names no resource (-32602); a real day without events is an empty list.
 */
export const dayHandler: ResourceHandler<'day'> = async (uri, variables) => {
  const midnight = parseDay(variables.date);
  if (midnight === null) throw new ResourceNotFoundError(uri.href);
  const next = new Date(midnight.getTime() + 24 * 60 * 60 * 1000);
  return JSON.stringify({ date: variables.date, events: eventsBetween(midnight, next, maxEventsPerDay) }, null, 2);
};
