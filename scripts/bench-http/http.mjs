// HTTP side: start a server on 127.0.0.1, check one `tools/call` answer field by field, then drive
// it with autocannon for a fixed time per concurrency level after a warm-up, in slices that
// interleave the servers.
import autocannon from 'autocannon';
import { shuffled } from '../bench/stats.mjs';
import { cpuMs, spawnNode, stopChild } from './processes.mjs';

export const PROTOCOL = '2026-07-28';

/** The `_meta` envelope a 2026-07-28 client puts on every request. */
export const envelope = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-http', version: '1.0.0' },
};

// The measured call: `add` validates its input and its output against schemas, so both servers do
// all of their per-call schema work. The request is the same bytes every time; the servers are stateless.
const CALL = { name: 'add', arguments: { a: 2, b: 3 } };
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...CALL, _meta: envelope } });
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL,
  'mcp-method': 'tools/call',
  'mcp-name': CALL.name,
};

/**
 * The same call as a 2025-11-25 client sends it, for a server on SDK 1.x (fastmcp): that era's protocol header
 * and no `_meta` envelope; its result has no `resultType`.
 */
export const legacyRequest = {
  legacy: true,
  headers: { 'content-type': 'application/json', accept: headers.accept, 'mcp-protocol-version': '2025-11-25' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: CALL }),
};
/** The measured call as a 2026-07-28 client sends it. */
export const modernRequest = { legacy: false, headers, body };

/** Spawns `node ...args`; resolves with `{ url, child, stop }` once it prints its URL on stderr (30 s bound). */
export function startHttpServer(args, env) {
  const child = spawnNode(args, env);
  child.stdout.resume();
  let stderr = '';
  return new Promise((resolve, reject) => {
    const fail = (why) => {
      clearTimeout(timer);
      void stopChild(child);
      reject(new Error(`${args.join(' ')}: ${why}; stderr:\n${stderr}`));
    };
    const timer = setTimeout(() => fail('did not print its URL within 30 s'), 30_000);
    const early = (code) => fail(`exited with ${code}`);
    child.once('exit', early);
    let started = false;
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString('utf8');
      const match = started ? null : /listening on (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stderr);
      if (match === null) return;
      started = true;
      clearTimeout(timer);
      // Only this start-up listener: the server logs more later (on SIGTERM, for one), and stopChild's
      // own 'exit' listener must survive that.
      child.off('exit', early);
      resolve({ url: match[1], child, stop: () => stopChild(child), stderr: () => stderr });
    });
  });
}

/** Throws unless `url` answers the benchmark call with a complete, successful `{ sum: 5 }` result. */
export async function checkSample(url, request = modernRequest) {
  const response = await fetch(url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    throw new Error(`${url}: not a JSON body (${response.headers.get('content-type')}): ${text.slice(0, 300)}`);
  }
  const result = message.result;
  const ok =
    response.status === 200 &&
    message.id === 1 &&
    (request.legacy || result?.resultType === 'complete') &&
    result.isError !== true &&
    result.structuredContent?.sum === 5 &&
    result.content?.[0]?.text === '{"sum":5}';
  if (!ok)
    throw new Error(`${url}: unexpected answer to tools/call add(2, 3): HTTP ${response.status} ${text.slice(0, 500)}`);
  return text;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// autocannon's own histogram keeps whole milliseconds, which rounds a 0.6 ms call to 0; its
// 'response' event carries the exact time, so latencies are kept here. Bounded: at most this many.
const MAX_SAMPLES = 2_000_000;

function drive(url, request, connections, seconds, latencies) {
  const { headers: sent, body: payload } = request;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, method: 'POST', headers: sent, body: payload, connections, pipelining: 1, duration: seconds, timeout: 10 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (latencies !== null) {
      instance.on('response', (_client, statusCode, _bytes, ms) => {
        if (statusCode === 200 && latencies.count < MAX_SAMPLES) latencies.values[latencies.count++] = ms;
      });
    }
  });
}

/**
 * One concurrency level for several servers. Each server first gets `warmupS` seconds of load that
 * are thrown away (JIT, pools, heap growth). The measured `durationS` seconds are then cut into
 * `slices` that visit every server once per slice, in an order shuffled by `random` (seeded), so that
 * load from anything else on the machine falls on all of them alike instead of on whichever happened
 * to run at a bad moment. Slice i of every server is one round, for comparisons paired by slice.
 * Returns, per label: req/s of 200 responses, exact p50/p99/max latency in ms and server CPU per request
 * in µs (null without /proc), each over the whole measurement and per slice (`slices.rps`, `slices.p50`,
 * `slices.p99`, `slices.max`, `slices.cpuUsPerReq`), and every non-2xx, error and timeout count. A server
 * with a `request` (legacyRequest) is sent that request instead of the 2026-07-28 one.
 */
export async function measureInterleaved(servers, connections, { durationS, warmupS, slices, ticksPerSecond, random }) {
  const state = {};
  for (const [label, server] of Object.entries(servers)) {
    if (warmupS > 0) await drive(server.url, server.request ?? modernRequest, connections, warmupS, null);
    const latencies = { values: new Float64Array(MAX_SAMPLES), count: 0 };
    state[label] = {
      latencies,
      ok: 0,
      seconds: 0,
      cpu: 0,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      slices: { rps: [], p50: [], p99: [], max: [], cpuUsPerReq: [] },
    };
  }
  const sliceS = durationS / slices;
  for (let i = 0; i < slices; i++) {
    for (const [label, server] of shuffled(Object.entries(servers), random)) {
      const s = state[label];
      const first = s.latencies.count;
      const cpuBefore = cpuMs(server.child.pid, ticksPerSecond);
      const result = await drive(server.url, server.request ?? modernRequest, connections, sliceS, s.latencies);
      const cpuAfter = cpuMs(server.child.pid, ticksPerSecond);
      const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      s.cpu = cpu === null || s.cpu === null ? null : s.cpu + cpu;
      s.ok += result['2xx'];
      s.seconds += result.duration;
      s.non2xx += result.non2xx;
      s.errors += result.errors;
      s.timeouts += result.timeouts;
      s.slices.rps.push(result['2xx'] / result.duration);
      const slice = s.latencies.values.slice(first, s.latencies.count).sort();
      s.slices.p50.push(percentile(slice, 50));
      s.slices.p99.push(percentile(slice, 99));
      s.slices.max.push(slice.length === 0 ? NaN : slice[slice.length - 1]);
      s.slices.cpuUsPerReq.push(cpu === null || result['2xx'] === 0 ? null : (cpu * 1000) / result['2xx']);
    }
  }
  const points = {};
  for (const [label, server] of Object.entries(servers)) {
    // The server must still answer correctly after the load, not only before it.
    await checkSample(server.url, server.request ?? modernRequest);
    const s = state[label];
    const sorted = s.latencies.values.subarray(0, s.latencies.count).sort();
    points[label] = {
      connections,
      rps: s.ok / s.seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.length === 0 ? NaN : sorted[sorted.length - 1],
      cpuUsPerReq: s.cpu === null || s.ok === 0 ? null : (s.cpu * 1000) / s.ok,
      slices: s.slices,
      ok: s.ok,
      non2xx: s.non2xx,
      errors: s.errors,
      timeouts: s.timeouts,
    };
  }
  return points;
}
