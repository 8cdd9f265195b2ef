import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { limits } from './harness.js';

// A real redis-server for the store tests: on a free loopback port, nothing written to disk,
// started and stopped with bounded waits. .ci/run installs it from Debian's packages.

/** A free TCP port on 127.0.0.1 (free when asked; redis binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A running redis-server. */
export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, limits.exitMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts redis-server on `port` (a free one by default); resolves once it accepts connections. */
export async function startRedis(port?: number): Promise<RunningRedis> {
  const chosen = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopRedis(child);
      reject(new Error(`redis-server did not start within ${limits.startMs / 1000} s: ${output}`));
    }, limits.startMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not run (install it: apt-get install -y redis-server): ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
    let ready = false;
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      // Once only: later output (the shutdown lines) must not drop the listener stopRedis adds.
      if (ready || !output.includes('Ready to accept connections')) return;
      ready = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
  });
  return { url: `redis://127.0.0.1:${chosen}`, port: chosen, stop: () => stopRedis(child) };
}
