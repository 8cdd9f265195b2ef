import type { ResourceHandler } from '../../generated/index.gen.js';
import { asResource } from '../../lib/errors.js';
import { listPath } from '../../lib/files.js';

/**
 * Handler of resource "top_listing".
 *
 * The entries of the scope directory itself as JSON `{ path: ".", entries: [...] }`.
 */
export const topListingHandler: ResourceHandler<'top_listing'> = async (uri, _variables, ctx) =>
  asResource(uri, ctx.log, async () => {
    const listed = await listPath('');
    return JSON.stringify({ path: listed.display, entries: listed.entries }, null, 2);
  });
