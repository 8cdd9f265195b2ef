// Runs a command as a whole process and returns wall time and peak RSS (median of `runs`).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const preload = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));

/** Median wall-clock milliseconds and peak RSS (MiB) of `node --import preload ...args`. */
export function measure(args, { runs = 5, cwd } = {}) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, ['--import', preload, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const line = result.stderr.split('\n').find((l) => l.startsWith('@@bench '));
    if (!line) throw new Error(`no measurement from ${args.join(' ')}:\n${result.stderr.slice(0, 2000)}`);
    samples.push({ ms, rssMb: JSON.parse(line.slice(8)).maxRssKb / 1024, status: result.status });
  }
  samples.sort((a, b) => a.ms - b.ms);
  const median = samples[Math.floor(samples.length / 2)];
  return { ms: Math.round(median.ms), rssMb: Math.round(Math.max(...samples.map((s) => s.rssMb))), status: median.status };
}
