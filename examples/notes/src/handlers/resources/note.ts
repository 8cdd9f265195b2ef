import { notImplemented, type ResourceHandler } from '../../generated/index.gen.js';

/**
 * Handler of resource "note".
 *
 * A note
 */
export const noteHandler: ResourceHandler<'note'> = async (uri, variables, ctx) => {
  // Your code goes here: mcp-gen never overwrites this file.
  throw notImplemented('resource', 'note');
};
