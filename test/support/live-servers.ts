import { existsSync } from 'node:fs';
import path from 'node:path';
import { installLocked } from './locked-install.js';
import { repoRoot } from './paths.js';

/** The project that pins the published MCP servers import and verify are tested against. */
export const liveServersHarness = path.join(repoRoot, 'test', 'fixtures', 'import', 'live-servers');
/** Where those servers are installed: `<this>/server-<name>/dist/index.js`. */
export const publishedServers = path.join(liveServersHarness, 'node_modules', '@modelcontextprotocol');

/** `npm ci` in the harness unless every pinned server is already there (an older install may lack one). */
export function installLiveServers(): void {
  const names = ['everything', 'filesystem', 'memory', 'sequential-thinking'];
  installLocked(liveServersHarness, [], () =>
    names.every((name) => existsSync(path.join(publishedServers, `server-${name}`, 'package.json'))),
  );
}
