import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, until } from '../support/dev-process.js';
import { repoRoot } from '../support/paths.js';

// `mcp-gen dev` and `generate --watch` started where no mcp.yaml exists wait for one; their hint named
// `mcp-gen generate path/to/mcp.yaml`, a command that neither serves nor watches. Each names itself.

const work = path.join(repoRoot, '.test-out', 'dev-no-manifest');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');

const commands = [
  { name: 'dev', args: async () => ['dev', '--port', String(await freePort()), '--no-console'] },
  { name: 'generate --watch', args: async () => ['generate', '--watch'] },
];

describe('a watching command without a manifest', () => {
  it.each(commands)('$name names itself in the hint, waits, and exits 0 on Ctrl-C', async ({ name, args }) => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const child = spawn(process.execPath, [cli, ...(await args())], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await until(
        () => stdout.includes('watching mcp.yaml'),
        'the watch',
        () => stdout + stderr,
      );
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe(
      'mcp.yaml:1:1: error [manifest-unreadable] manifest "mcp.yaml" does not exist or cannot be read\n' +
        `  hint: there is no mcp.yaml in ${work}: create a project with "mcp-gen init", or pass the path of your ` +
        `manifest, e.g. "mcp-gen ${name} path/to/mcp.yaml"\n1 error, 0 warnings\n`,
    );
    expect(stdout.replace(/^\d\d:\d\d:\d\d /, '')).toBe(
      'mcp.yaml: 1 error(s), nothing written\nwatching mcp.yaml; press Ctrl-C to stop\n',
    );
  });
});
