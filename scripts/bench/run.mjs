// Whole-process measurements: wall time from the parent's clock, and the CPU time and peak RSS
// that the kernel reports for the child when it exits, read through GNU time (/usr/bin/time).
// The child is not instrumented at all, so the same measurement applies to mcp-gen, the peer
// generator and a bare `node -e ''`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { shuffled } from './stats.mjs';

const TIME = '/usr/bin/time';

/** Throws a clear message unless GNU time is installed (it reports each child's peak RSS). */
export function requireGnuTime() {
  const probe = existsSync(TIME) ? spawnSync(TIME, ['-f', '%M', 'true'], { encoding: 'utf8', timeout: 10_000 }) : null;
  if (probe === null || probe.status !== 0 || !/^\d+\s*$/m.test(probe.stderr)) {
    throw new Error(
      `npm run bench needs GNU time at ${TIME} to read each process's peak RSS and CPU time.\n` +
        'Install it (Debian/Ubuntu: apt-get install -y time; Fedora: dnf install time) and run again.',
    );
  }
}

/**
 * Runs `command ...args` to completion under GNU time and returns `{ ms, cpuMs, rssMiB, status,
 * stdout, stderr }`: wall milliseconds (from just before the spawn to its end, so the few
 * microseconds of time(1) itself fall on every variant alike), user + system CPU (10 ms
 * resolution), and the peak resident set size. `scratch` is a folder for time(1)'s report.
 */
export function timeProcess(command, args, { cwd, env = process.env, scratch, timeoutMs = 180_000 }) {
  const report = path.join(scratch, 'time.txt');
  rmSync(report, { force: true });
  const start = process.hrtime.bigint();
  const result = spawnSync(TIME, ['-f', '%U %S %M', '-o', report, command, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    timeout: timeoutMs,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.error !== undefined) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  // time(1) writes "Command exited with non-zero status N" first when the child fails; the figures
  // are always the last line.
  const lines = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n') : [];
  const figures = (lines.at(-1) ?? '').split(' ').map(Number);
  if (figures.length !== 3 || figures.some((n) => !Number.isFinite(n))) {
    throw new Error(
      `${command} ${args.join(' ')}: no report from ${TIME} ` +
        `(${lines.join(' | ')}); stderr:\n${result.stderr.slice(0, 2000)}`,
    );
  }
  const [user, system, rssKiB] = figures;
  return {
    ms,
    cpuMs: (user + system) * 1000,
    rssMiB: rssKiB / 1024,
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

/** Like timeProcess, but throws with the child's output unless it exits with `expected` (0). */
export function timeChecked(command, args, options, expected = 0) {
  const run = timeProcess(command, args, options);
  if (run.status !== expected) {
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} exited with ${run.status}, ` +
        `expected ${expected}:\n${run.stdout.slice(0, 2000)}${run.stderr.slice(0, 2000)}`,
    );
  }
  return run;
}

/**
 * Interleaves whole-process runs: `runs + discard` rounds, and in each round every variant once, in
 * an order shuffled by `random` (seeded, so a run can be replayed). `variants` maps a label to
 * `{ prepare?, run }`: prepare (untimed, e.g. emptying an output folder) runs right before its
 * variant; run may be async and returns one sample. The first `discard` rounds only warm caches.
 * Returns label → samples in round order, so that series can be compared round by round.
 */
export async function interleave(variants, { runs, discard = 1, random, onRound = () => {} }) {
  const labels = Object.keys(variants);
  const samples = Object.fromEntries(labels.map((label) => [label, []]));
  for (let round = 0; round < runs + discard; round++) {
    for (const label of shuffled(labels, random)) {
      variants[label].prepare?.();
      const sample = await variants[label].run();
      if (round >= discard) samples[label].push(sample);
    }
    onRound(round + 1, runs + discard);
  }
  return samples;
}
