import { type Dirent, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/**
 * Calls `onChange` after the manifest was saved. Watches the folder rather
 * than the file, because editors save by writing a new file and renaming it
 * over the old one, which ends a watch on the file itself; bursts of events
 * from one save are folded into one call. An editor's save (write, or write a
 * temporary file and rename it) sends its events within a few milliseconds, so
 * a short quiet period folds them without making the user wait.
 */
export function watchManifest(manifestPath: string, onChange: () => void, debounceMs = 50): FSWatcher {
  const file = path.resolve(manifestPath);
  let timer: NodeJS.Timeout | undefined;
  return watch(path.dirname(file), (_event, name) => {
    if (name !== null && name.toString() !== path.basename(file)) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
}

/**
 * Calls `onChange` after a save of a TypeScript file under `dir` outside
 * `skip` (a folder whose changes are handled elsewhere, as generated code is),
 * bursts folded as for the manifest. Each folder is watched on its own: Node
 * 20's recursive watch on Linux stops reporting after an editor replaces a
 * file by a rename. A folder that appears later (the first `src/` a generate
 * writes, `src/handlers/prompts/` for a first prompt, a folder of your own)
 * is watched from the event in its parent, or from `refresh()`, so its saves
 * build too; `dir` itself may not exist yet.
 */
export function watchSources(
  dir: string,
  skip: string,
  onChange: () => void,
  debounceMs = 50,
): { close: () => void; refresh: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const watchers = new Map<string, FSWatcher>();
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  };
  // Watches `folder` and every folder below it not watched yet; true when it found one.
  const walk = (folder: string): boolean => {
    if (closed || folder === skip || path.basename(folder) === 'node_modules') return false;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return false; // not a folder, not there (yet), or removed
    }
    let found = false;
    if (!watchers.has(folder)) {
      const watcher = watch(folder, (_event, name) => {
        if (name === null) return;
        if (name.toString().endsWith('.ts')) changed();
        // A folder that arrived with files in it (moved or copied in) brings saves nobody saw.
        else if (walk(path.join(folder, name.toString()))) changed();
      });
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(folder);
      });
      watchers.set(folder, watcher);
      found = true;
    }
    for (const entry of entries) if (entry.isDirectory() && walk(path.join(folder, entry.name))) found = true;
    return found;
  };
  const refresh = () => {
    const before = watchers.size;
    if (walk(dir) && before > 0) changed();
  };
  refresh();
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
    refresh,
  };
}

/**
 * The state of every TypeScript file under `dir` (path, size, modification time) as one string: two builds
 * from equal stamps build the same thing, so a build asked for twice by one save (the manifest's regeneration
 * and the stub it wrote under `dir`) runs once.
 */
export function stampSources(dir: string): string {
  const parts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(file);
      else if (entry.isFile() && entry.name.endsWith('.ts')) {
        const stats = statSync(file, { throwIfNoEntry: false });
        if (stats !== undefined) parts.push(`${file}:${stats.size}:${stats.mtimeMs}`);
      }
    }
  };
  try {
    walk(dir);
  } catch {
    // A folder removed while walking: a stamp no build had, so the build runs.
    parts.push(String(Math.random()));
  }
  return parts.sort().join('\n');
}
