import type { ResourceHandler } from '../../generated/index.gen.js';
import { asResource } from '../../lib/errors.js';
import { listPath } from '../../lib/files.js';
import { decodeVariable } from '../../lib/scope.js';

/**
 * Handler of resource "listing".
 *
 * The entries of one directory inside the scope as JSON `{ path, entries: [{ name, type, size? }] }`.
 * The path is percent-decoded, checked (no "..", not absolute), then opened one component at a time
 * relative to the directory before it, links followed only inside the scope; a refused path is -32602,
 * like a missing one.
 */
export const listingHandler: ResourceHandler<'listing'> = async (uri, variables, ctx) =>
  asResource(uri, ctx.log, async () => {
    const listed = await listPath(decodeVariable(variables.path));
    return JSON.stringify({ path: listed.display, entries: listed.entries }, null, 2);
  });
