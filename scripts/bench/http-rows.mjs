// HTTP `tools/call` at 32 keep-alive connections: the generated server for the two tools of
// scripts/bench-http/manifest.yaml beside the hand-written SDK server with its schemas built once
// (the fair baseline), the same server written as the SDK's docs show it, fastmcp in its stateless
// HTTP mode (the framework peer, on SDK 1.x and so spoken to as a 2025-11-25 client), and plain
// node:http answering with canned bytes (the floor). All five run for the whole phase and are measured
// in slices that visit each once per slice in a seeded random order; slices pair the comparisons.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSample, legacyRequest, measureInterleaved, startHttpServer } from '../bench-http/http.mjs';
import { clockTicks, serverEnv } from '../bench-http/processes.mjs';
import { buildGeneratedProject, sdkServerPath } from '../bench-http/project.mjs';
import { ensureFastmcp } from './peer.mjs';

const cannedServerPath = fileURLToPath(new URL('../bench-http/canned-server.mjs', import.meta.url));
const fastmcpServerPath = fileURLToPath(new URL('../bench-http/fastmcp-server.mjs', import.meta.url));
/** Concurrent keep-alive connections of the HTTP load. */
export const CONNECTIONS = 32;

/**
 * Starts the four servers, checks each one's answer, measures them in interleaved slices and stops
 * them; returns the HTTP rows, the raw per-server points and the versions of the peers it ran.
 */
export async function benchHttp({ scratch, durationS, slices, warmupS, random, log }) {
  log('building the generated two-tool server...');
  const entry = buildGeneratedProject(path.join(scratch, 'generated'));
  // Installed beside the other scratch folders of the run (.bench/fastmcp), on the first run only.
  const fastmcp = ensureFastmcp(path.dirname(scratch));
  const env = serverEnv();
  const answerFile = path.join(scratch, 'canned-answer.json');
  const servers = {
    generated: [entry, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'],
    fair: [sdkServerPath, 'http', 'once'],
    docs: [sdkServerPath, 'http'],
    fastmcp: [fastmcpServerPath, fastmcp.modules],
    canned: [cannedServerPath, answerFile],
  };
  const requests = { fastmcp: legacyRequest };
  const running = {};
  let points;
  try {
    for (const [label, args] of Object.entries(servers)) {
      running[label] = { ...(await startHttpServer(args, env)), request: requests[label] };
      const answer = await checkSample(running[label].url, requests[label]);
      // The floor answers with the generated server's own bytes, so every server sends the same answer.
      if (label === 'generated') writeFileSync(answerFile, answer);
    }
    log(
      `${CONNECTIONS} connections: ${warmupS} s warm-up per server, ` +
        `then ${durationS} s per server in ${slices} slices...`,
    );
    const loadBefore = os.loadavg()[0];
    points = await measureInterleaved(running, CONNECTIONS, {
      durationS,
      warmupS,
      slices,
      ticksPerSecond: clockTicks(),
      random,
    });
    log(
      `load average (1 min) ${loadBefore.toFixed(2)} before the measured slices, ${os.loadavg()[0].toFixed(2)} after`,
    );
  } finally {
    await Promise.all(Object.values(running).map((server) => server.stop()));
  }
  for (const [label, p] of Object.entries(points)) {
    if (p.non2xx + p.errors + p.timeouts > 0)
      log(`WARNING: ${label}: ${p.non2xx} non-2xx, ${p.errors} errors, ${p.timeouts} timeouts`);
  }
  const series = (label, key) => points[label].slices[key];
  const fair = 'hand-written SDK server, schemas built once';
  const docs = 'hand-written SDK server, docs style (schemas in the factory)';
  const peer = `fastmcp ${fastmcp.version}, stateless HTTP (SDK 1.x, 2025-11-25)`;
  const canned = 'plain `node:http`, canned answer';
  const figure = (what) => `HTTP \`tools/call\`, ${CONNECTIONS} connections: ${what}`;
  const row = (what, unit, key, label, baseline, target) => ({
    figure: figure(what),
    unit,
    ours: series('generated', key),
    baseline: { label, samples: series(baseline, key) },
    ...(target === undefined ? {} : { target }),
  });
  const rows = [
    row('req/s', 'req/s', 'rps', fair, 'fair', { ratioMin: 2.0 }),
    row('req/s', 'req/s', 'rps', docs, 'docs'),
    row('req/s', 'req/s', 'rps', peer, 'fastmcp', { ratioMin: 3.0 }),
    row('req/s', 'req/s', 'rps', canned, 'canned', { ratioMin: 0.25 }),
    // The tail against the server's own median, slice by slice: the target of issue 25.
    {
      figure: figure('p99 latency'),
      unit: 'ms',
      ours: series('generated', 'p99'),
      baseline: { label: 'its own p50 latency, same slices', samples: series('generated', 'p50') },
      target: { ratioMax: 3.0 },
    },
    row('p50 latency', 'ms', 'p50', fair, 'fair'),
    row('p50 latency', 'ms', 'p50', peer, 'fastmcp'),
    row('p99 latency', 'ms', 'p99', fair, 'fair'),
    row('p99 latency', 'ms', 'p99', docs, 'docs'),
    row('p99 latency', 'ms', 'p99', peer, 'fastmcp'),
    row('p99 latency', 'ms', 'p99', canned, 'canned'),
    row('max latency', 'ms', 'max', fair, 'fair'),
    row('max latency', 'ms', 'max', peer, 'fastmcp'),
  ];
  for (const [label, baseline] of [
    [fair, 'fair'],
    [peer, 'fastmcp'],
  ]) {
    if ([...series('generated', 'cpuUsPerReq'), ...series(baseline, 'cpuUsPerReq')].every((v) => v !== null))
      rows.push(row('server CPU per call', 'µs', 'cpuUsPerReq', label, baseline));
  }
  return { rows, points, versions: [`fastmcp ${fastmcp.version}`] };
}
