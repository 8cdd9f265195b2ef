import type { promises as fs } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';
import { asTool } from '../../lib/errors.js';
import { entriesOf, inDirectory, openChild, sizeIn } from '../../lib/files.js';

/** The search stops (truncated: true) after looking at this many directory entries. */
const maxVisited = 10_000;

/** Nor does it go deeper than this: each level holds one open directory. */
const maxDepth = 64;

/**
 * Handler of tool "search_files".
 *
 * Depth-first, in name order, from the checked start directory. Each subdirectory is opened relative to its
 * parent's descriptor and never through a symbolic link, so the walk cannot leave the scope even while
 * directories are swapped for links; only regular files are reported, with paths relative to the scope.
 */
export const searchFilesHandler: ToolHandler<'search_files'> = async (input) =>
  asTool(async () =>
    inDirectory(input.path ?? '', async (start, walk) => {
      const limit = input.limit ?? 50;
      const needle = input.query.toLowerCase();
      const matches: { path: string; size: number }[] = [];
      let visited = 0;
      let truncated = false;
      const visit = async (dir: fs.FileHandle, at: readonly string[], depth: number): Promise<void> => {
        for (const entry of await entriesOf(dir)) {
          if (truncated) return;
          if (++visited > maxVisited) {
            truncated = true;
            return;
          }
          if (entry.isDirectory()) {
            if (depth === maxDepth) {
              truncated = true;
              return;
            }
            const child = await openChild(dir, entry.name);
            if (child === null) continue; // gone, or swapped for something that is not a directory
            try {
              await visit(child, [...at, entry.name], depth + 1);
            } finally {
              await child.close();
            }
          } else if (entry.isFile() && entry.name.toLowerCase().includes(needle)) {
            if (matches.length === limit) {
              truncated = true;
              return;
            }
            const size = await sizeIn(dir, entry.name);
            if (size !== null) matches.push({ path: [...at, entry.name].join('/'), size });
          }
        }
      };
      await visit(start, walk.canonical(), 0);
      return { matches, truncated };
    }),
  );
