import type { ResourceHandler } from '../../generated/index.gen.js';
import { asResource } from '../../lib/errors.js';
import { decodeVariable, listResolved, resolveExisting } from '../../lib/scope.js';

/**
 * Handler of resource "listing".
 *
 * The entries of one directory inside the scope as JSON `{ path, entries: [{ name, type, size? }] }`.
 * The path is percent-decoded, then checked (no "..", not absolute, realpath inside the scope) before the
 * directory is read; a refused path is -32602, like a missing one.
 */
export const listingHandler: ResourceHandler<'listing'> = async (uri, variables, ctx) =>
  asResource(uri, ctx.log, async () => {
    const resolved = await resolveExisting(decodeVariable(variables.path));
    return JSON.stringify({ path: resolved.display, entries: await listResolved(resolved) }, null, 2);
  });
