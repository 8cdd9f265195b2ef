import type { ResourceHandler } from '../../generated/index.gen.js';
import { asResource } from '../../lib/errors.js';
import { readPath } from '../../lib/files.js';
import { decodeVariable } from '../../lib/scope.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Handler of resource "file".
 *
 * One regular file inside the scope, at most 1 MiB: `text/plain` when it is valid UTF-8, otherwise a base64
 * `application/octet-stream` blob. The path is percent-decoded and checked, then opened one component at a
 * time relative to the directory before it (src/lib/walk.ts).
 */
export const fileHandler: ResourceHandler<'file'> = async (uri, variables, ctx) =>
  asResource(uri, ctx.log, async () => {
    const data = await readPath(decodeVariable(variables.path));
    try {
      return { text: utf8.decode(data), mimeType: 'text/plain' };
    } catch {
      return { blob: data.toString('base64'), mimeType: 'application/octet-stream' };
    }
  });
