import { readdirSync, readFileSync } from 'node:fs';
import { compareText } from '../util/compare.js';

/** A file the dev console serves: its media type and its text. */
export interface ConsoleAsset {
  readonly type: string;
  readonly body: string;
}

const types: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The console's scripts and style sheets (templates/console/), by path from the site root (`/console.js`). */
export function loadConsoleAssets(): ReadonlyMap<string, ConsoleAsset> {
  const root = new URL('../../templates/console/', import.meta.url);
  const assets = new Map<string, ConsoleAsset>();
  for (const name of readdirSync(root).sort(compareText)) {
    const type = types[name.slice(name.lastIndexOf('.'))];
    if (type !== undefined) assets.set(`/${name}`, { type, body: readFileSync(new URL(name, root), 'utf8') });
  }
  return assets;
}
