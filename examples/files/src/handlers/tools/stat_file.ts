import { promises as fs } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';
import { asTool } from '../../lib/errors.js';
import { resolveExisting } from '../../lib/scope.js';

/**
 * Handler of tool "stat_file".
 *
 * Describe a path: type, size and modification time of what it resolves to, once the path is checked.
 */
export const statFileHandler: ToolHandler<'stat_file'> = async (input) =>
  asTool(async () => {
    const resolved = await resolveExisting(input.path);
    const stats = await fs.stat(resolved.real);
    return {
      path: resolved.display,
      type: stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other',
      size: stats.size,
      modified: stats.mtime.toISOString(),
    };
  });
