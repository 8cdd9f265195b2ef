// `--only soak`: the generated two-tool server of the HTTP group under 32 keep-alive connections for
// `--duration` seconds (600 by default), in back-to-back autocannon intervals; after each interval
// the server's resident set is read from /proc. Prints the curve (time, calls, req/s, p50, p99,
// max, RSS) and the growth after warm-up; the curve also goes to .bench/results.json. The server
// runs with Node's default heap: a cap would turn a leak into a crash instead of a rising curve.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { checkSample, modernRequest, startHttpServer } from '../bench-http/http.mjs';
import { serverEnv } from '../bench-http/processes.mjs';
import { buildGeneratedProject } from '../bench-http/project.mjs';
import { CONNECTIONS } from './http-rows.mjs';

/** The resident set of `pid` in MiB (Linux /proc), or null elsewhere. */
function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return null;
  }
}

function interval(url, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        ...modernRequest,
        connections: CONNECTIONS,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const fixed = (n, digits = 1) => (n === null ? '—' : n.toFixed(digits));

/**
 * Runs the soak; returns `{ points, table, summary }`: one point per interval (elapsed s, calls so far, req/s,
 * p50/p99/max ms from autocannon's whole-millisecond histogram, RSS MiB), the curve as a Markdown table, and a
 * line with the RSS after warm-up (the first `warmupS` seconds), its range after and its last value.
 */
export async function benchSoak({ scratch, durationS, intervalS, warmupS, log }) {
  log('building the generated two-tool server...');
  const entry = buildGeneratedProject(path.join(scratch, 'generated'));
  const server = await startHttpServer(
    [entry, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'],
    serverEnv(),
  );
  const points = [];
  try {
    await checkSample(server.url);
    let calls = 0;
    const intervals = Math.max(1, Math.round(durationS / intervalS));
    log(`${CONNECTIONS} connections for ${intervals} intervals of ${intervalS} s, RSS after each...`);
    for (let i = 1; i <= intervals; i++) {
      const result = await interval(server.url, intervalS);
      if (result.non2xx + result.errors + result.timeouts > 0)
        log(`WARNING: interval ${i}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
      if (server.child.exitCode !== null || server.child.signalCode !== null)
        throw new Error(`the server died after ${calls} calls:\n${server.stderr().slice(-2000)}`);
      calls += result['2xx'];
      const point = {
        seconds: i * intervalS,
        calls,
        rps: result['2xx'] / intervalS,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        rssMiB: rssMiB(server.child.pid),
      };
      points.push(point);
      log(`${point.seconds} s: ${calls} calls, ${Math.round(point.rps)} req/s, RSS ${fixed(point.rssMiB)} MiB`);
    }
  } finally {
    await server.stop();
  }
  const table = [
    '| time | calls | req/s | p50 | p99 | max | RSS |',
    '|---|---|---|---|---|---|---|',
    ...points.map(
      (p) =>
        `| ${p.seconds} s | ${p.calls.toLocaleString('en-US')} | ${Math.round(p.rps).toLocaleString('en-US')} | ` +
        `${p.p50} ms | ${p.p99} ms | ${p.max} ms | ${fixed(p.rssMiB)} MiB |`,
    ),
  ].join('\n');
  const warm = points.filter((p) => p.seconds <= warmupS).at(-1) ?? points[0];
  const after = points.filter((p) => p.seconds > warm.seconds && p.rssMiB !== null).map((p) => p.rssMiB);
  const last = points.at(-1);
  const summary =
    after.length === 0
      ? `no RSS samples after ${warm.seconds} s of warm-up`
      : `RSS ${fixed(warm.rssMiB)} MiB after ${warm.seconds} s of warm-up; after it between ` +
        `${fixed(Math.min(...after))} and ${fixed(Math.max(...after))} MiB, ${fixed(last.rssMiB)} MiB at the end ` +
        `(${last.seconds} s, ${last.calls.toLocaleString('en-US')} calls)`;
  return { points, table, summary };
}
