import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// `mcp-gen init --help | head -3`: the reader closes the pipe before the help is written; the CLI stops quietly.

it('stops quietly with exit code 0 when its reader closes the pipe early', async () => {
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'init', '--help'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect([code, stderr]).toEqual([0, '']);
});
