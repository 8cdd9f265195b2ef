// Every child process the benchmark starts goes through here, so that all of them are killed when
// the run ends, fails, is interrupted, or overruns its time budget. Only our own children are
// signalled, each by its pid; nothing is killed by name.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const children = new Set();

function killAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

/** Kills every child and exits with 1 once `ms` have passed; the timer does not keep the process alive. */
export function setWatchdog(ms) {
  setTimeout(() => {
    process.stderr.write(`bench: time budget of ${Math.round(ms / 1000)} s exceeded, stopping\n`);
    killAll();
    process.exit(1);
  }, ms).unref();
}

/** `node ...args` with piped stdio (in `options.cwd` when given), registered for clean-up. */
export function spawnNode(args, env, options = {}) {
  const child = spawn(process.execPath, args, { ...options, env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  // A child that cannot be started must not crash the runner with an unhandled 'error' event.
  child.on('error', () => {});
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export function stopChild(child, graceMs = 3_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The environment of every server: PATH plus fixed 32-byte keys, so no server warns or differs by key loading. */
export function serverEnv() {
  return {
    PATH: process.env.PATH ?? '',
    BENCH_HANDLE_KEY: 'bench-http-handle-key-0123456789abcdef',
    BENCH_STATE_KEY: 'bench-http-state-key-0123456789abcdefg',
  };
}

/**
 * CPU time used so far by process `pid`, in ms, from /proc; null where /proc is not available.
 * The sum of every thread's schedstat is in nanoseconds, which matters for a 0.5 s cold start that
 * utime + stime would round to 10 ms ticks; those ticks remain the fallback.
 */
export function cpuMs(pid, ticksPerSecond) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    if (Number.isFinite(ns) && ns > 0) return ns / 1e6;
  } catch {
    // no schedstat (or a thread ended while being read): fall back to the tick counters
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc CPU times (`getconf CLK_TCK`, almost always 100). */
export function clockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 }).trim()) || 100;
  } catch {
    return 100;
  }
}
