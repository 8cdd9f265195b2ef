import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The built server of the project whose manifest is `manifest` (relative to
 * `cwd`): `dist/server.mjs` next to it, as `npm run build` writes it; null when
 * it has not been built.
 */
export function builtServerEntry(manifest: string, cwd: string): string | null {
  const entry = path.resolve(cwd, path.dirname(manifest), 'dist', 'server.mjs');
  return existsSync(entry) ? entry : null;
}
