// HTTP `tools/call` at 32 keep-alive connections: the generated server for the two tools of
// scripts/bench-http/manifest.yaml beside the hand-written SDK server with its schemas built once
// (the fair baseline), the same server written as the SDK's docs show it, and plain node:http
// answering with canned bytes (the floor). All four run for the whole phase and are measured in
// slices that visit each once per slice in a seeded random order; slices pair the comparisons.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSample, measureInterleaved, startHttpServer } from '../bench-http/http.mjs';
import { clockTicks, serverEnv } from '../bench-http/processes.mjs';
import { buildGeneratedProject, sdkServerPath } from '../bench-http/project.mjs';

const cannedServerPath = fileURLToPath(new URL('../bench-http/canned-server.mjs', import.meta.url));
/** Concurrent keep-alive connections of the HTTP load. */
export const CONNECTIONS = 32;

/**
 * Starts the four servers, checks each one's answer, measures them in interleaved slices and stops
 * them; returns the HTTP rows and the raw per-server points.
 */
export async function benchHttp({ scratch, durationS, slices, warmupS, random, log }) {
  log('building the generated two-tool server...');
  const entry = buildGeneratedProject(path.join(scratch, 'generated'));
  const env = serverEnv();
  const answerFile = path.join(scratch, 'canned-answer.json');
  const servers = {
    generated: [entry, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'],
    fair: [sdkServerPath, 'http', 'once'],
    docs: [sdkServerPath, 'http'],
    canned: [cannedServerPath, answerFile],
  };
  const running = {};
  let points;
  try {
    for (const [label, args] of Object.entries(servers)) {
      running[label] = await startHttpServer(args, env);
      const answer = await checkSample(running[label].url);
      // The floor answers with the generated server's own bytes, so every server sends the same answer.
      if (label === 'generated') writeFileSync(answerFile, answer);
    }
    log(
      `${CONNECTIONS} connections: ${warmupS} s warm-up per server, ` +
        `then ${durationS} s per server in ${slices} slices...`,
    );
    points = await measureInterleaved(running, CONNECTIONS, {
      durationS,
      warmupS,
      slices,
      ticksPerSecond: clockTicks(),
      random,
    });
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
  const canned = 'plain `node:http`, canned answer';
  const rps = `HTTP \`tools/call\`, ${CONNECTIONS} connections: req/s`;
  const rows = [
    {
      figure: rps,
      unit: 'req/s',
      ours: series('generated', 'rps'),
      baseline: { label: fair, samples: series('fair', 'rps') },
      target: { ratioMin: 2.0 },
    },
    {
      figure: rps,
      unit: 'req/s',
      ours: series('generated', 'rps'),
      baseline: { label: docs, samples: series('docs', 'rps') },
    },
    {
      figure: rps,
      unit: 'req/s',
      ours: series('generated', 'rps'),
      baseline: { label: canned, samples: series('canned', 'rps') },
    },
    {
      figure: `HTTP \`tools/call\`, ${CONNECTIONS} connections: p99 latency`,
      unit: 'ms',
      ours: series('generated', 'p99'),
      baseline: { label: fair, samples: series('fair', 'p99') },
    },
    {
      figure: `HTTP \`tools/call\`, ${CONNECTIONS} connections: p99 latency`,
      unit: 'ms',
      ours: series('generated', 'p99'),
      baseline: { label: docs, samples: series('docs', 'p99') },
    },
  ];
  if ([...series('generated', 'cpuUsPerReq'), ...series('fair', 'cpuUsPerReq')].every((v) => v !== null)) {
    rows.push({
      figure: `HTTP \`tools/call\`, ${CONNECTIONS} connections: server CPU per call`,
      unit: 'µs',
      ours: series('generated', 'cpuUsPerReq'),
      baseline: { label: fair, samples: series('fair', 'cpuUsPerReq') },
    });
  }
  return { rows, points };
}
