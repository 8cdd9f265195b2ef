import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

// What tests that start servers share: a free loopback port, and a bounded stop.

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it right after). */
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

/**
 * Stops `child` with `signal` (SIGTERM; SIGINT for a command that cleans up on Ctrl-C), and SIGKILL when it has not
 * exited within `exitMs`; resolves once it is gone.
 */
export function stopChild(child: ChildProcess, exitMs: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, exitMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}
