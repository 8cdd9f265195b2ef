import type { ResourceHandler } from '../../generated/types.gen.js';
import { notImplemented } from '../../generated/runtime/errors.gen.js';

/**
 * Handler of resource "note".
 *
 * A note
 */
export const note: ResourceHandler<'note'> = async (uri, variables, ctx) => {
  // Your code goes here: mcp-gen never overwrites this file.
  throw notImplemented('resource', 'note');
};
