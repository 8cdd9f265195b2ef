import { existsSync } from 'node:fs';

/**
 * The entry script of mcp-gen's worker thread (src/worker/entry.ts) in this build, or null when there is none to
 * start (running from the TypeScript sources): in the bundle (dist/bundle/), this code sits in a chunk beside
 * `worker.js`; compiled by tsc, in dist/load/, beside dist/worker/entry.js.
 */
export function loadWorkerScript(): URL | null {
  for (const candidate of ['./worker.js', '../worker/entry.js']) {
    const url = new URL(candidate, import.meta.url);
    if (url.protocol === 'file:' && existsSync(url)) return url;
  }
  return null;
}
