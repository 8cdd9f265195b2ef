import type { ResourceHandler } from '../../generated/index.gen.js';
import { asResource } from '../../lib/errors.js';
import { listResolved, resolveExisting } from '../../lib/scope.js';

/**
 * Handler of resource "top_listing".
 *
 * The entries of the scope directory itself as JSON `{ path: ".", entries: [...] }`.
 */
export const topListingHandler: ResourceHandler<'top_listing'> = async (uri, _variables, ctx) =>
  asResource(uri, ctx.log, async () => {
    const resolved = await resolveExisting('');
    return JSON.stringify({ path: resolved.display, entries: await listResolved(resolved) }, null, 2);
  });
