// Where the HTTP tail comes from: runs the generated benchmark server under 32 keep-alive connections
// for a few seconds with --cpu-prof, --trace-gc and an event-loop-delay monitor (loop-delay.mjs), then
// prints the client's p50/p99/max, the GC pauses, the loop delay and the functions with the most
// self time. One server at a time; every child is stopped by its pid. Not part of `npm run bench`.
//
// Usage: node scripts/bench-http/profile.mjs [seconds=8] [connections=32]
//   (build the project first: npm run build; the server is built into .bench/profile/generated)
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { checkSample, envelope, PROTOCOL, startHttpServer } from './http.mjs';
import { serverEnv, setWatchdog } from './processes.mjs';
import { buildGeneratedProject, repoRoot } from './project.mjs';

const seconds = Number(process.argv[2] ?? 8);
const connections = Number(process.argv[3] ?? 32);
setWatchdog(10 * 60_000);
const scratch = path.join(repoRoot, '.bench', 'profile');
const profiles = path.join(scratch, 'cpu');
rmSync(profiles, { recursive: true, force: true });
mkdirSync(profiles, { recursive: true });
const entry = buildGeneratedProject(path.join(scratch, 'generated'));
const preload = fileURLToPath(new URL('./loop-delay.mjs', import.meta.url));
const server = await startHttpServer(
  [
    '--cpu-prof',
    `--cpu-prof-dir=${profiles}`,
    '--trace-gc',
    '--import',
    preload,
    entry,
    '--transport',
    'http',
    '--port',
    '0',
  ],
  serverEnv(),
);
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: envelope },
});
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL,
  'mcp-method': 'tools/call',
  'mcp-name': 'add',
};
const latencies = [];
let gcLines = '';
server.child.stdout.on('data', (chunk) => (gcLines += chunk.toString('utf8')));
try {
  await checkSample(server.url);
  const load = os.loadavg()[0];
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: server.url, method: 'POST', headers, body, connections, duration: seconds, timeout: 10 },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_c, status, _b, ms) => status === 200 && latencies.push(ms));
  });
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(2);
  console.log(
    `client: ${(result['2xx'] / result.duration).toFixed(0)} req/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, ` +
      `max ${latencies.at(-1).toFixed(2)} ms (${latencies.length} calls; load average ${load.toFixed(2)} before, ` +
      `${os.loadavg()[0].toFixed(2)} after)`,
  );
} finally {
  await server.stop();
}
console.log(
  server
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('loop-delay:'))
    .join('\n'),
);

// --trace-gc lines: "[pid:addr:gc id] 1234 ms: Scavenge 12.3 (15.0) -> 11.1 (16.0) MB, 0.8 / 0.0 ms ..."
const pauses = { Scavenge: [], 'Mark-Compact': [], other: [] };
for (const m of gcLines.matchAll(/ms: (Scavenge|Mark-Compact|[A-Za-z-]+)[^,]*, ([\d.]+) \/ [\d.]+ ms/g)) {
  (pauses[m[1]] ?? pauses.other).push(Number(m[2]));
}
for (const [kind, list] of Object.entries(pauses)) {
  if (list.length === 0) continue;
  const sum = list.reduce((a, b) => a + b, 0);
  console.log(`gc ${kind}: ${list.length} pauses, ${sum.toFixed(0)} ms in all, max ${Math.max(...list).toFixed(2)} ms`);
}

// Self time per function from the CPU profile (sampled; the whole run, start-up included).
const file = readdirSync(profiles).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(path.join(profiles, file), 'utf8'));
const interval = (profile.endTime - profile.startTime) / profile.samples.length / 1000;
const self = new Map();
let total = 0;
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const where =
    url === ''
      ? ''
      : ` ${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${lineNumber + 1}`;
  const key = `${functionName || '(anonymous)'}${where}`;
  self.set(key, (self.get(key) ?? 0) + node.hitCount * interval);
  total += node.hitCount * interval;
}
console.log(`cpu profile: ${total.toFixed(0)} ms sampled; top self time:`);
for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${key}`);
}
