import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ToolHandler } from '../../generated/index.gen.js';
import { asTool } from '../../lib/errors.js';
import { resolveExisting, ScopeError } from '../../lib/scope.js';

/** The search stops (truncated: true) after looking at this many directory entries. */
const maxVisited = 10_000;

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Handler of tool "search_files".
 *
 * Depth-first, in name order, from the checked start directory. Symbolic links are never followed, so the
 * walk cannot leave the scope; only regular files are reported, with paths relative to the scope.
 */
export const searchFilesHandler: ToolHandler<'search_files'> = async (input) =>
  asTool(async () => {
    const start = await resolveExisting(input.path ?? '');
    if (!(await fs.stat(start.real)).isDirectory()) throw new ScopeError(`${JSON.stringify(start.display)} is not a directory.`);
    const limit = input.limit ?? 50;
    const needle = input.query.toLowerCase();
    const matches: { path: string; size: number }[] = [];
    let visited = 0;
    let truncated = false;
    const walk = async (directory: string): Promise<void> => {
      const entries = (await fs.readdir(directory, { withFileTypes: true })).sort(byName);
      for (const entry of entries) {
        if (truncated) return;
        if (++visited > maxVisited) {
          truncated = true;
          return;
        }
        const full = path.join(directory, entry.name);
        if (entry.isDirectory()) {
          await walk(full);
        } else if (entry.isFile() && entry.name.toLowerCase().includes(needle)) {
          if (matches.length === limit) {
            truncated = true;
            return;
          }
          const size = await fs.lstat(full).then((stats) => stats.size, () => null);
          if (size !== null) matches.push({ path: path.relative(start.root, full).split(path.sep).join('/'), size });
        }
      }
    };
    await walk(start.real);
    return { matches, truncated };
  });
