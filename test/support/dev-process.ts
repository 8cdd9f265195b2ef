import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { repoRoot } from './paths.js';

// `mcp-gen dev` as the console tests run it (Chromium and Firefox): a project made by `init` from an example, dev on
// a free server port and any free console port, and Ctrl-C at the end.

const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');

export interface Dev {
  readonly child: ChildProcess;
  readonly output: () => string;
  /** How many builds dev has finished (each prints "built; server restarted"). */
  readonly builds: () => number;
  readonly console: string;
}

type Env = Readonly<Record<string, string>>;

/** Waits (bounded) until `done()` holds. */
export async function until(done: () => boolean, what: string, read: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}; output so far:\n${read()}`);
}

/** `init <name> --example <example> --transport both` in `work`: the project's folder. */
export function initProject(work: string, name: string, example: string, env: Env): string {
  const args = [cli, 'init', name, '--example', example, '--transport', 'both', '--yes'];
  const init = spawnSync(process.execPath, args, { cwd: work, encoding: 'utf8', timeout: 60_000, env });
  if (init.status !== 0) throw new Error(init.stderr);
  return path.join(work, name);
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** `mcp-gen dev` on a free server port and a free console port, once its first build serves. */
export async function startDev(project: string, env: Env): Promise<Dev> {
  let output = '';
  const port = String(await freePort());
  const child = spawn(process.execPath, [cli, 'dev', '--port', port, '--console-port', '0'], { cwd: project, env });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const builds = () => output.split('built; server restarted').length - 1;
  await until(
    () => builds() > 0,
    'the first build',
    () => output,
  );
  const url = /console: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1] ?? '';
  return { child, output: () => output, builds, console: url };
}

/** Ctrl-C, and the exit. */
export async function stopDev(dev: Dev | undefined): Promise<void> {
  if (dev === undefined || dev.child.exitCode !== null) return;
  const exited = new Promise((resolve) => dev.child.once('exit', resolve));
  dev.child.kill('SIGINT');
  await exited;
}
