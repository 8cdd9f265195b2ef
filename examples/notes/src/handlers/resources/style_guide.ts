import { notImplemented, type ResourceHandler } from '../../generated/index.gen.js';

/** Handler of resource "style_guide". */
export const styleGuideHandler: ResourceHandler<'style_guide'> = async (uri, variables, ctx) => {
  // Your code goes here: mcp-gen never overwrites this file.
  throw notImplemented('resource', 'style_guide');
};
