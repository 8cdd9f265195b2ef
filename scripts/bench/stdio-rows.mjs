// stdio cold start of the demo example (examples/demo, compiled and bundled as `npm run build` does) beside two
// hand-written SDK servers for the same tool, resource and prompt (scripts/bench/servers/
// demo-server.mjs): one with its schemas built once (the fair baseline) and one written as the
// SDK's docs show it. Two figures per server: spawn → first `tools/call` answer and spawn →
// `tools/list` answer. All six spawns of a round run back to back, in a seeded random order.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { callProbe, coldStartOnce, listProbe } from '../bench-http/coldstart.mjs';
import { serverEnv } from '../bench-http/processes.mjs';
import { interleave } from './run.mjs';

const handwritten = fileURLToPath(new URL('./servers/demo-server.mjs', import.meta.url));

/**
 * Builds examples/demo as its `npm run build` does, into `outDir` (inside the repository, so the SDK resolves): `tsc`
 * with its own tsconfig, then the project's bundle step (src/generated/bundle.gen.mjs); returns the bundle,
 * which `npm start` runs.
 */
async function buildDemo(root, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  const result = spawnSync(tsc, ['-p', path.join(root, 'examples', 'demo', 'tsconfig.json'), '--outDir', outDir], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (result.status !== 0) throw new Error(`compiling examples/demo failed:\n${result.stdout}${result.stderr}`);
  // The project's own build step, pointed at `outDir` (tsc's output folder there).
  const bundled = spawnSync(
    process.execPath,
    [path.join(root, 'examples', 'demo', 'src', 'generated', 'bundle.gen.mjs'), '--dist', outDir],
    { cwd: path.join(root, 'examples', 'demo'), encoding: 'utf8', timeout: 120_000 },
  );
  if (bundled.status !== 0) throw new Error(`bundling examples/demo failed:\n${bundled.stdout}${bundled.stderr}`);
  return path.join(outDir, 'server.mjs');
}

/** Interleaved cold starts of the generated demo and both hand-written servers; returns the stdio rows. */
export async function benchStdio({ root, scratch, runs, discard, random, progress }) {
  const entry = await buildDemo(root, path.join(scratch, 'demo'));
  const env = serverEnv();
  const servers = { generated: [entry, '--transport', 'stdio'], fair: [handwritten], docs: [handwritten, 'docs'] };
  const probes = { call: callProbe('add', { a: 40, b: 2 }, { sum: 42 }), list: listProbe(['add']) };
  const variants = {};
  for (const [server, args] of Object.entries(servers)) {
    for (const [probe, request] of Object.entries(probes))
      variants[`${server}-${probe}`] = { run: () => coldStartOnce(args, env, request) };
  }
  const samples = await interleave(variants, { runs, discard, random, onRound: progress });
  const wall = (label) => samples[label].map((s) => s.wall);
  const cpu = (label) => samples[label].map((s) => s.cpu);
  const fair = 'hand-written SDK server, schemas built once';
  const docs = 'hand-written SDK server, docs style (schemas in the factory)';
  const rows = [
    {
      figure: 'stdio spawn → first `tools/call` answer, demo',
      unit: 'ms',
      ours: wall('generated-call'),
      baseline: { label: fair, samples: wall('fair-call') },
      target: { ratioMax: 0.8 },
    },
    {
      figure: 'stdio spawn → first `tools/call` answer, demo',
      unit: 'ms',
      ours: wall('generated-call'),
      baseline: { label: docs, samples: wall('docs-call') },
    },
    {
      figure: 'stdio spawn → `tools/list` answer, demo',
      unit: 'ms',
      ours: wall('generated-list'),
      baseline: { label: fair, samples: wall('fair-list') },
      target: { ratioMax: 0.8 },
    },
    {
      figure: 'stdio spawn → `tools/list` answer, demo',
      unit: 'ms',
      ours: wall('generated-list'),
      baseline: { label: docs, samples: wall('docs-list') },
    },
  ];
  // CPU is read from /proc; without it (not Linux) the row is left out.
  if (samples['generated-call'].every((s) => s.cpu !== null) && samples['fair-call'].every((s) => s.cpu !== null)) {
    rows.push({
      figure: 'server CPU until the first `tools/call` answer, demo',
      unit: 'ms',
      ours: cpu('generated-call'),
      baseline: { label: fair, samples: cpu('fair-call') },
    });
  }
  return rows;
}
