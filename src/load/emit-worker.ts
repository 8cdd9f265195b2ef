import { existsSync } from 'node:fs';

/**
 * The entry script of emit's worker thread (src/emit/worker/entry.ts) in this build of mcp-gen, or null when there
 * is none to start (running from the TypeScript sources): in the bundle (dist/bundle/), this code sits in a chunk
 * beside `emit-worker.js`; compiled by tsc, in dist/load/, two folders from dist/emit/worker/entry.js.
 */
export function loadEmitWorkerScript(): URL | null {
  for (const candidate of ['./emit-worker.js', '../emit/worker/entry.js']) {
    const url = new URL(candidate, import.meta.url);
    if (url.protocol === 'file:' && existsSync(url)) return url;
  }
  return null;
}
