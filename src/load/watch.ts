import { watch, type FSWatcher } from 'node:fs';
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
