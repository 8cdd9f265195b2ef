import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

/** The project that pins the published MCP servers import and verify are tested against. */
export const liveServersHarness = path.join(repoRoot, 'test', 'fixtures', 'import', 'live-servers');
/** Where those servers are installed: `<this>/server-<name>/dist/index.js`. */
export const publishedServers = path.join(liveServersHarness, 'node_modules', '@modelcontextprotocol');

/** `npm ci` in the harness unless every pinned server is already there (an older install may lack one). */
export function installLiveServers(): void {
  const names = ['everything', 'filesystem', 'memory', 'sequential-thinking'];
  if (names.every((name) => existsSync(path.join(publishedServers, `server-${name}`, 'package.json')))) return;
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: liveServersHarness,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (npm.status !== 0) throw new Error(`npm ci in ${liveServersHarness} failed:\n${npm.stdout}${npm.stderr}`);
}
