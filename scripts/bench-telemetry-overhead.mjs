// `node scripts/bench-telemetry-overhead.mjs` (after `node scripts/bench-telemetry.mjs`, which builds the
// project it reads): the no-SDK cost of telemetry.gen.ts's instrumentation alone, in process. A transport
// whose server does nothing carries one `tools/call` and its answer, N times, with and without `instrument`;
// rounds alternate in a seeded order and are compared pairwise. What remains is what the instrumentation adds
// to every request before the SDK and the handler are counted: span start and end through the API's no-op
// tracer, the attributes, the context switch and the histogram's no-op record.
//
// Usage: node scripts/bench-telemetry-overhead.mjs [--rounds 21] [--calls 20000] [--seed 1]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { repoRoot } from './bench-http/project.mjs';
import { paired, seededRandom, shuffled, summarize } from './bench/stats.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '21' },
    calls: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
  },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const random = seededRandom(Number(values.seed));
const runtime = path.join(repoRoot, '.bench', 'telemetry', 'on', 'dist', 'src', 'generated', 'runtime');
const { openTelemetry } = await import(pathToFileURL(path.join(runtime, 'telemetry.gen.js')).href);

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
};
const answer = (id) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: '3' }] } });

/** A transport as the SDK leaves it once connected: onmessage set, send writing nowhere. */
function transport(traced) {
  const t = { onmessage: () => {}, send: async () => {}, onclose: undefined, start: async () => {} };
  if (traced) {
    // instrument() patches connect; the fake server's connect only hands the transport over.
    const server = { connect: async () => {} };
    openTelemetry('pipe').instrument(server);
    return server.connect(t).then(() => t);
  }
  return Promise.resolve(t);
}

const variants = { off: await transport(false), on: await transport(true) };
let id = 0;
async function sample(t) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const message = { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'add', _meta: meta } };
    t.onmessage(message, undefined);
    await t.send(answer(message.id));
  }
  return Number(process.hrtime.bigint() - start) / calls; // ns per request
}

for (let i = 0; i < 3; i++) for (const label of ['off', 'on']) await sample(variants[label]);
const samples = { off: [], on: [] };
for (let round = 0; round < rounds; round++)
  for (const label of shuffled(['off', 'on'], random)) samples[label].push(await sample(variants[label]));
const off = summarize(samples.off);
const on = summarize(samples.on);
const cmp = paired(samples.on, samples.off);
const us = (ns) => (ns / 1000).toFixed(2);
process.stdout.write(
  `off ${us(off.median)} µs/request (IQR ${us(off.q1)}–${us(off.q3)}), on ${us(on.median)} µs/request ` +
    `(IQR ${us(on.q1)}–${us(on.q3)}); added ${us(cmp.diff)} µs (95% CI ${us(cmp.diffInterval[0])}–` +
    `${us(cmp.diffInterval[1])}), ${rounds} paired rounds of ${calls}\n`,
);
