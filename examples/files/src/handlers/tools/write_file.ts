import type { ToolHandler } from '../../generated/index.gen.js';
import { asTool } from '../../lib/errors.js';
import { resolveForWrite, writeChecked } from '../../lib/scope.js';

/**
 * Handler of tool "write_file".
 *
 * Runs only after the user confirmed this exact call (approval: confirm), and even then writes nothing
 * until the path is checked: relative, no "..", its directory existing and resolving inside the scope, and
 * an existing target not a link leading outside. O_NOFOLLOW (and O_EXCL unless overwrite) at open time.
 */
export const writeFileHandler: ToolHandler<'write_file'> = async (input, ctx) =>
  asTool(async () => {
    const target = await resolveForWrite(input.path);
    const bytes = await writeChecked(target, input.content, input.overwrite === true);
    ctx.log(`files: wrote ${bytes} bytes to ${target.display}`);
    return { path: target.display, bytes, created: !target.exists };
  });
