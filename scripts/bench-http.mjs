// Benchmark: `tools/call` throughput over HTTP (1 and 32 connections) and stdio cold start of a
// generated server, against a hand-written SDK v2 server for the same tools written as the SDK's
// docs show it (scripts/bench-http/sdk-server.mjs). Both are measured in the same run, on 127.0.0.1.
// Cold start is measured twice: for those two tools, and for a catalog of look-up tools
// (scripts/bench-http/catalog.mjs), where the cost of each tool shows.
//
// Usage: npm run bench:http [-- --duration 10 --slices 5 --warmup 3 --runs 51 --catalog 20]
// Prints a Markdown table (copy it into docs/benchmarks.md) and writes .bench/http/results.json.
// Everything is bounded: fixed durations, a run count, per-step timeouts, and a watchdog that kills
// every child process if the whole run overruns.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { catalogToolNames, writeCatalog } from './bench-http/catalog.mjs';
import { bareNodeArgs, coldStarts } from './bench-http/coldstart.mjs';
import { checkSample, measureInterleaved, startHttpServer } from './bench-http/http.mjs';
import { clockTicks, serverEnv, setWatchdog } from './bench-http/processes.mjs';
import { buildGeneratedProject, repoRoot, sdkServerPath } from './bench-http/project.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    slices: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    runs: { type: 'string', default: '51' },
    catalog: { type: 'string', default: '20' },
  },
});
function bounded(name, value, min, max) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}
const durationS = bounded('duration', values.duration, 1, 60);
const slices = bounded('slices', values.slices, 1, 20);
const warmupS = bounded('warmup', values.warmup, 0, 30);
const runs = bounded('runs', values.runs, 15, 101);
const catalogSize = bounded('catalog', values.catalog, 2, 100);
const CONNECTIONS = [1, 32];

// Budget: two builds, two servers x two points x (warm-up + measurement + per-slice overhead), five
// cold-start series of (runs + 2) spawns at well under 2 s each, and a generous margin.
setWatchdog((300 + 4 * (warmupS + durationS + slices + 5) + 5 * (runs + 2) * 2 + 120) * 1000);

const benchDir = path.join(repoRoot, '.bench', 'http');
mkdirSync(benchDir, { recursive: true });

function versionOf(pkg) {
  return JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

/** Read-only facts about the checkout, so a recorded table says what it measured. */
function checkout() {
  const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', timeout: 10_000 }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', 'templates', 'src').split('\n').filter(Boolean).length;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty === 0 ? '' : ` + ${dirty} uncommitted change(s) under templates/ and src/`}`;
  } catch {
    return 'unknown (no git)';
  }
}

const fmt = {
  rps: (n) => Math.round(n).toLocaleString('en-US'),
  ms: (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1)),
  ratio: (n) => `${n.toFixed(2)}x`,
};

async function main() {
  const loadBefore = os.loadavg()[0].toFixed(2);
  process.stderr.write('bench-http: generating and compiling the benchmark project...\n');
  const generatedEntry = buildGeneratedProject(path.join(benchDir, 'generated'));
  const env = serverEnv();
  const servers = {
    generated: { args: [generatedEntry, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'] },
    handwritten: { args: [sdkServerPath, 'http'] },
  };

  // HTTP: both servers run for the whole HTTP phase (an idle one costs nothing) and are measured in
  // alternating slices, so slow drift or a burst of other work on the machine hits both alike.
  const http = { generated: [], handwritten: [] };
  const started = [];
  try {
    for (const server of Object.values(servers)) {
      server.running = await startHttpServer(server.args, env);
      started.push(server.running);
      await checkSample(server.running.url);
    }
    const ticksPerSecond = clockTicks();
    const running = { generated: servers.generated.running, handwritten: servers.handwritten.running };
    for (const connections of CONNECTIONS) {
      process.stderr.write(`bench-http: ${connections} connection(s): ${warmupS} s warm-up each, then ${durationS} s each in ${slices} alternating slices...\n`);
      const points = await measureInterleaved(running, connections, { durationS, warmupS, slices, ticksPerSecond });
      for (const label of Object.keys(http)) http[label].push(points[label]);
    }
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }

  process.stderr.write(`bench-http: stdio cold start, ${runs} runs per server...\n`);
  const cold = await coldStarts(
    {
      generated: [generatedEntry, '--transport', 'stdio'],
      handwritten: [sdkServerPath, 'stdio'],
      bare: bareNodeArgs,
    },
    env,
    { runs },
  );

  process.stderr.write(`bench-http: stdio cold start of a ${catalogSize}-tool catalog, ${runs} runs per server...\n`);
  const catalog = writeCatalog(path.join(benchDir, 'catalog'), catalogSize);
  const catalogEntry = buildGeneratedProject(path.join(benchDir, 'catalog-generated'), { manifest: catalog.manifestPath, handlers: catalog.handlersDir });
  const coldCatalog = await coldStarts(
    { generated: [catalogEntry, '--transport', 'stdio'], handwritten: [catalog.sdkServer] },
    env,
    { runs, tools: catalogToolNames(catalogSize) },
  );

  const machine = {
    checkout: checkout(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model?.trim() ?? 'unknown',
    platform: `${os.platform()} ${os.release()}`,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    // Other work on the machine moves every number here; the 1-minute load average brackets the run.
    load: `${loadBefore} at the start, ${os.loadavg()[0].toFixed(2)} at the end`,
    versions: Object.fromEntries(['@modelcontextprotocol/server', '@modelcontextprotocol/node', 'zod', 'autocannon'].map((p) => [p, versionOf(p)])),
  };
  writeFileSync(
    path.join(benchDir, 'results.json'),
    `${JSON.stringify({ date: new Date().toISOString(), machine, durationS, slices, warmupS, runs, catalogSize, http, cold, coldCatalog }, null, 2)}\n`,
  );
  console.log(report(machine, http, cold, coldCatalog));
}

function median(sorted) {
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * A distribution-free 95% confidence interval for the median of `sorted` (the sign-test interval):
 * the k-th smallest and k-th largest values, with k the largest rank such that
 * P(Binomial(n, 1/2) < k) <= 2.5%. Assumes nothing about the shape of the noise.
 */
function medianInterval(sorted) {
  const n = sorted.length;
  let below = 0; // P(X < k) for X ~ Binomial(n, 1/2), built up term by term
  let term = 0.5 ** n; // P(X = 0)
  let k = 0;
  while (below + term <= 0.025) {
    below += term;
    term = (term * (n - k)) / (k + 1);
    k++;
  }
  return k === 0 ? [sorted[0], sorted[n - 1]] : [sorted[k - 1], sorted[n - k]];
}
function spread(sorted) {
  return `${Math.round(sorted[Math.floor(sorted.length * 0.1)])}–${Math.round(sorted[Math.ceil(sorted.length * 0.9) - 1])}`;
}

/**
 * The table rows, the paired-difference sentence and the verdict of one cold-start scenario. The
 * verdict is judged on the paired difference, the estimate that other load on the machine disturbs
 * least; its confidence interval says whether a difference is more than noise.
 */
function coldRows(cold, label) {
  const [g, h] = [median(cold.generated.wall), median(cold.handwritten.wall)];
  const rows = [`| ${label} | ${Math.round(g)} ms (${spread(cold.generated.wall)}) | ${Math.round(h)} ms (${spread(cold.handwritten.wall)}) | **${fmt.ratio(g / h)}** |`];
  if (cold.generated.cpu.length > 0 && cold.handwritten.cpu.length > 0) {
    const [pg, ph] = [median(cold.generated.cpu), median(cold.handwritten.cpu)];
    rows.push(`| server CPU until that answer | ${Math.round(pg)} ms (${spread(cold.generated.cpu)}) | ${Math.round(ph)} ms (${spread(cold.handwritten.cpu)}) | ${fmt.ratio(pg / ph)} |`);
  }
  // Paired by round (the spawns of a round run back to back), the difference is far less exposed to
  // load that comes and goes than the two medians taken apart.
  const diffs = cold.generated.rounds.map((wall, i) => wall - cold.handwritten.rounds[i]).sort((a, b) => a - b);
  const faster = diffs.filter((d) => d < 0).length;
  const [low, high] = medianInterval(diffs);
  const paired = median(diffs);
  const interval = `95% confidence interval ${Math.round(low)} to ${Math.round(high)} ms`;
  // Slower is claimed only when the whole interval is above zero; a positive median whose interval
  // spans zero is reported as what it is, a difference this run cannot tell from noise.
  const verdict =
    paired <= 0
      ? `met (paired difference ${Math.round(paired)} ms, ${interval})`
      : low > 0
        ? `MISSED, slower beyond the noise (paired difference +${Math.round(paired)} ms, ${interval})`
        : `not measurably slower, but the median is above zero (paired difference +${Math.round(paired)} ms, ${interval})`;
  return { rows, paired: `${Math.round(paired)} ms median (${interval}; p10–p90 ${spread(diffs)}); generated faster in ${faster} of ${diffs.length} rounds.`, verdict };
}

function report(machine, http, cold, coldCatalog) {
  const v = machine.versions;
  const lines = [
    `Checkout ${machine.checkout}. Node ${machine.node}, ${machine.cpus} x ${machine.cpuModel}, ${machine.platform}, ${machine.memGiB} GiB RAM; 1-minute load average ${machine.load}.`,
    `Packages: @modelcontextprotocol/server ${v['@modelcontextprotocol/server']}, @modelcontextprotocol/node ${v['@modelcontextprotocol/node']}, zod ${v.zod}, autocannon ${v.autocannon}.`,
    `HTTP: \`tools/call\` add(2, 3); per point ${warmupS} s warm-up per server, then ${durationS} s per server in ${slices} alternating slices; autocannon on the same machine. Cold start: median of ${runs} spawns per server, interleaved round by round (p10–p90 in brackets).`,
    '',
    '| | generated (mcp-gen) | hand-written (SDK docs style) | generated / hand-written |',
    '|---|---:|---:|---:|',
  ];
  CONNECTIONS.forEach((connections, i) => {
    const g = http.generated[i];
    const h = http.handwritten[i];
    const c = `${connections} connection${connections === 1 ? '' : 's'}`;
    lines.push(`| HTTP req/s, ${c} | ${fmt.rps(g.rps)} | ${fmt.rps(h.rps)} | **${fmt.ratio(g.rps / h.rps)}** |`);
    lines.push(`| HTTP latency p50 / p99, ${c} | ${fmt.ms(g.p50)} / ${fmt.ms(g.p99)} ms | ${fmt.ms(h.p50)} / ${fmt.ms(h.p99)} ms | ${fmt.ratio(g.p50 / h.p50)} / ${fmt.ratio(g.p99 / h.p99)} |`);
    if (g.cpuUsPerReq !== null && h.cpuUsPerReq !== null) {
      lines.push(`| server CPU per call, ${c} | ${Math.round(g.cpuUsPerReq)} µs | ${Math.round(h.cpuUsPerReq)} µs | ${fmt.ratio(g.cpuUsPerReq / h.cpuUsPerReq)} |`);
    }
  });
  const two = coldRows(cold, 'stdio cold start to first `tools/list`, two tools');
  const many = coldRows(coldCatalog, `stdio cold start to first \`tools/list\`, ${catalogSize}-tool catalog`);
  lines.push(...two.rows, ...many.rows, '', `Cold start, paired by round (generated minus hand-written): ${two.paired}`, `With the ${catalogSize}-tool catalog: ${many.paired}`);
  lines.push(`Floor: a bare \`node -e\` line responder answers in ${Math.round(median(cold.bare.wall))} ms (${spread(cold.bare.wall)}).`);

  for (const [label, points] of Object.entries(http)) {
    for (const p of points.filter((q) => q.non2xx + q.errors + q.timeouts > 0)) {
      lines.push(`WARNING: ${label}, ${p.connections} connection(s): ${p.non2xx} non-2xx, ${p.errors} errors, ${p.timeouts} timeouts.`);
    }
  }
  const last = CONNECTIONS.length - 1;
  const ratio = http.generated[last].rps / http.handwritten[last].rps;
  lines.push(
    '',
    `Target "at least 2x the hand-written server's HTTP req/s at 32 connections": ${ratio >= 2 ? 'met' : 'MISSED'} (${fmt.ratio(ratio)}).`,
    `Target "no slower at stdio cold start", two tools: ${two.verdict}.`,
    `Target "no slower at stdio cold start", ${catalogSize}-tool catalog: ${many.verdict}.`,
  );
  return lines.join('\n');
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench-http failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
