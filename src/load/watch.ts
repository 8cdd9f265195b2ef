import { readdirSync, watch, type FSWatcher } from 'node:fs';
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
 * bursts folded as for the manifest. Each folder that exists now is watched
 * on its own: Node 20's recursive watch on Linux stops reporting after an
 * editor replaces a file by a rename.
 */
export function watchSources(dir: string, skip: string, onChange: () => void, debounceMs = 50): { close: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const folders: string[] = [];
  const walk = (folder: string) => {
    if (folder === skip) return;
    folders.push(folder);
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(path.join(folder, entry.name));
  };
  walk(dir);
  const watchers = folders.map((folder) =>
    watch(folder, (_event, name) => {
      if (name === null || !name.toString().endsWith('.ts')) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    }),
  );
  return {
    close: () => {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
