import type { ToolHandler } from '../../generated/index.gen.js';
import { asTool } from '../../lib/errors.js';
import { statPath } from '../../lib/files.js';

/**
 * Handler of tool "stat_file".
 *
 * Describe a path: type, size and modification time of what it resolves to, links followed only inside the
 * scope and never by the kernel (src/lib/walk.ts).
 */
export const statFileHandler: ToolHandler<'stat_file'> = async (input) =>
  asTool(async () => {
    const { display, stats } = await statPath(input.path);
    return {
      path: display,
      type: stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other',
      size: stats.size,
      modified: stats.mtime.toISOString(),
    };
  });
