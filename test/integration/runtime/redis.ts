import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, stopChild } from '../../support/processes.js';
import { limits } from './harness.js';

// A real redis-server for the store tests: on a free loopback port, nothing written to disk,
// started and stopped with bounded waits. .ci/run installs it from Debian's packages.

export { freePort };

/** A running redis-server. */
export interface RunningRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

const stopRedis = (child: ChildProcess): Promise<void> => stopChild(child, limits.exitMs);

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
