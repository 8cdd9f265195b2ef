import type { ToolHandler } from '../../generated/index.gen.js';
import { asTool } from '../../lib/errors.js';
import { writePath } from '../../lib/files.js';

/**
 * Handler of tool "write_file".
 *
 * Runs only after the user confirmed this exact call (approval: confirm), and even then writes nothing
 * outside the scope: the path is checked lexically (relative, no ".."), then every directory on it is opened
 * relative to the one before without following links (src/lib/walk.ts), so a directory swapped for a link
 * while the call runs cannot redirect the write. O_NOFOLLOW, and O_EXCL unless overwrite, on the file.
 */
export const writeFileHandler: ToolHandler<'write_file'> = async (input, ctx) =>
  asTool(async () => {
    const written = await writePath(input.path, input.content, input.overwrite === true);
    ctx.log(`files: wrote ${written.bytes} bytes to ${written.display}`);
    return { path: written.display, bytes: written.bytes, created: written.created };
  });
