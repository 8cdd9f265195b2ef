import { ResourceNotFoundError, type ResourceHandler } from '../../generated/index.gen.js';
import { findEvent } from '../../lib/store.js';

/**
 * Handler of resource "event".
 *
 * One event as JSON; an unknown id is "resource not found" (-32602).
 */
export const eventHandler: ResourceHandler<'event'> = async (uri, variables) => {
  const found = findEvent(variables.id);
  if (found === undefined) throw new ResourceNotFoundError(uri.href);
  return JSON.stringify(found, null, 2);
};
