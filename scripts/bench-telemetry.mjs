// `node scripts/bench-telemetry.mjs`: what `telemetry: { type: opentelemetry }` costs when no SDK is
// registered (the API's no-op), against the same server without it. Two projects from the benchmark
// manifest (scripts/bench-http/manifest.yaml), identical but for the telemetry line, run side by side;
// every round measures both, in a seeded random order, on servers that stay up: over stdio, µs per
// sequential `tools/call add`; over HTTP (the fast path), requests per second at 32 connections. The
// rounds are compared pairwise (scripts/bench/stats.mjs), so load that comes and goes on the shared
// machine falls on both alike. Prints a Markdown table and writes the samples to .bench/telemetry.json.
//
// Usage: node scripts/bench-telemetry.mjs [--rounds 15] [--calls 2000] [--seconds 3] [--seed 1]
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { clockTicks, cpuMs, setWatchdog, spawnNode, stopChild, serverEnv } from './bench-http/processes.mjs';
import { buildGeneratedProject, manifestPath, repoRoot } from './bench-http/project.mjs';
import { paired, seededRandom, shuffled, summarize } from './bench/stats.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    calls: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
  },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const seconds = Number(values.seconds);
const random = seededRandom(Number(values.seed));
setWatchdog(30 * 60_000);

const scratch = path.join(repoRoot, '.bench', 'telemetry');
mkdirSync(scratch, { recursive: true });
const telemetryManifest = path.join(scratch, 'manifest-telemetry.yaml');
writeFileSync(telemetryManifest, `${readFileSync(manifestPath, 'utf8')}telemetry: { type: opentelemetry }\n`);
const plainManifest = path.join(scratch, 'manifest.yaml');
copyFileSync(manifestPath, plainManifest);
const entries = {
  off: buildGeneratedProject(path.join(scratch, 'off'), { manifest: plainManifest }),
  on: buildGeneratedProject(path.join(scratch, 'on'), { manifest: telemetryManifest }),
};

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = (id) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: meta },
});

/** A stdio server that answers one request at a time. */
function startStdio(entry) {
  const child = spawnNode([entry], serverEnv());
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  let next = 0;
  const request = (message) =>
    new Promise((resolve) => {
      waiting.set(message.id, resolve);
      child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  return {
    child,
    /** Wall and server CPU µs per call over `count` sequential calls. */
    async sample(count) {
      const cpuBefore = cpuMs(child.pid, ticks);
      const start = process.hrtime.bigint();
      for (let i = 0; i < count; i++) {
        const answer = await request(call(++next));
        if (answer.error !== undefined || answer.result?.structuredContent?.sum !== 3)
          throw new Error(`stdio: unexpected answer ${JSON.stringify(answer)}`);
      }
      const wall = Number(process.hrtime.bigint() - start) / 1000 / count;
      return { wall, cpu: ((cpuMs(child.pid, ticks) - cpuBefore) * 1000) / count };
    },
  };
}

/** An HTTP server; resolves once it says where it listens. */
function startHttp(entry) {
  const child = spawnNode([entry, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'], serverEnv());
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`http server did not start: ${stderr}`)), 60_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ child, url: match[1] });
    });
  });
}

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'add',
};
/** Requests per second at 32 connections for `duration` seconds; every answer must be a 200. */
function load(url, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: 'POST', headers, body: JSON.stringify(call(1)), connections: 32, duration, timeout: 10 },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`http: ${result.non2xx} non-2xx answers`));
        resolve(result.requests.total / duration);
      },
    );
  });
}

const ticks = clockTicks();
const stdio = { off: startStdio(entries.off), on: startStdio(entries.on) };
const http = { off: await startHttp(entries.off), on: await startHttp(entries.on) };
// Warm-up: JIT, lazy handlers, the fast path's pinned server.
for (const label of ['off', 'on']) {
  await stdio[label].sample(calls);
  await load(http[label].url, 1);
}

const samples = { stdio: { off: [], on: [] }, stdioCpu: { off: [], on: [] }, http: { off: [], on: [] } };
const loads = [];
for (let round = 0; round < rounds; round++) {
  loads.push(os.loadavg()[0]);
  for (const label of shuffled(['off', 'on'], random)) {
    const { wall, cpu } = await stdio[label].sample(calls);
    samples.stdio[label].push(wall);
    samples.stdioCpu[label].push(cpu);
  }
  for (const label of shuffled(['off', 'on'], random)) samples.http[label].push(await load(http[label].url, seconds));
  process.stderr.write(`round ${round + 1}/${rounds}\n`);
}
await Promise.all([...Object.values(stdio), ...Object.values(http)].map((s) => stopChild(s.child)));

const fmt = (x, digits = 1) => x.toFixed(digits);
const row = (name, unit, series, digits) => {
  const off = summarize(series.off);
  const on = summarize(series.on);
  const cmp = paired(series.on, series.off);
  const [lo, hi] = cmp.ratioInterval;
  return (
    `| ${name} | ${fmt(off.median, digits)} ${unit} (IQR ${fmt(off.q1, digits)}–${fmt(off.q3, digits)}) | ` +
    `${fmt(on.median, digits)} ${unit} (IQR ${fmt(on.q1, digits)}–${fmt(on.q3, digits)}) | ` +
    `${fmt(cmp.ratio, 3)} (95% CI ${fmt(lo, 3)}–${fmt(hi, 3)}) | ${cmp.below}/${cmp.n} |`
  );
};
const table = [
  '| measure | telemetry off | telemetry on, no SDK | on / off, paired | rounds on < off |',
  '| --- | --- | --- | --- | --- |',
  row('stdio, sequential `tools/call add`, wall', 'µs/call', samples.stdio, 1),
  row('stdio, the same calls, server CPU', 'µs/call', samples.stdioCpu, 1),
  row('HTTP fast path, 32 connections', 'req/s', samples.http, 0),
].join('\n');
const [low, high] = [Math.min(...loads), Math.max(...loads)];
const loadRange = `load average (1 min) ${fmt(low, 2)}–${fmt(high, 2)} on ${os.cpus().length} cores`;
process.stdout.write(
  `${table}\n\n${rounds} rounds, ${calls} stdio calls and ${seconds} s of HTTP load each; ${loadRange}\n`,
);
writeFileSync(path.join(repoRoot, '.bench', 'telemetry.json'), `${JSON.stringify({ samples, loads }, null, 2)}\n`);
