import { lstatSync } from 'node:fs';
import path from 'node:path';
import { WriteError } from './errors.js';

/**
 * The first folder on the way from `root` to the project-relative `relative` (its parents only, not
 * the path itself) that is a symbolic link, or null. A folder that does not exist yet ends the walk:
 * the run creates it, as a real folder. `seen` caches answers across the paths of one run.
 *
 * mcp-gen writes only through real folders below the project root, even where a link points back
 * inside: with every folder real, the text of a path is where it lands, so the realpath of every
 * target lies inside the realpath of the root, and a journal cannot name one file two ways. The root
 * itself may be a link (it is what the user named). A path that is itself a link is not checked here:
 * a link in a file's place is replaced by the rename, never followed.
 */
export function linkedParent(root: string, relative: string, seen = new Map<string, boolean>()): string | null {
  const parts = relative.split('/').slice(0, -1);
  for (let n = 1; n <= parts.length; n++) {
    const dir = parts.slice(0, n).join('/');
    let linked = seen.get(dir);
    if (linked === undefined) {
      const stat = lstatSync(path.join(root, ...parts.slice(0, n)), { throwIfNoEntry: false });
      if (stat === undefined) return null;
      linked = stat.isSymbolicLink();
      seen.set(dir, linked);
    }
    if (linked) return dir;
  }
  return null;
}

/** Refuses, before anything is written, every planned path that would be written through a linked folder. */
export function refuseLinkedFolders(root: string, relatives: Iterable<string>): void {
  const seen = new Map<string, boolean>();
  for (const relative of relatives) {
    const dir = linkedParent(root, relative, seen);
    if (dir !== null)
      throw new WriteError(
        `could not write "${relative}": its folder "${dir}" is a symbolic link, and mcp-gen writes ` +
          `only through real folders inside the project; nothing was changed\n  hint: replace the ` +
          `link "${dir}" with a real folder (move what it points to into the project)`,
      );
  }
}
