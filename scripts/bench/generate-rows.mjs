// The generator's own figures, all as whole processes interleaved round by round: a cold
// `generate` of the 11-tool task tracker beside openapi-mcp-generator on the equivalent OpenAPI
// spec, a no-op `generate`, `generate --check` and a `generate` after a manifest edit beside the cold
// run, `validate` beside a bare `node -e ''`, and a cold `generate` of 500 tools beside one of 50.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticManifest } from './manifests.mjs';
import { interleave, timeChecked } from './run.mjs';

const inputs = fileURLToPath(new URL('./inputs/', import.meta.url));
/** The 11-tool task tracker as an mcp-gen manifest, and the same domain as an OpenAPI 3.0 spec for the peer. */
export const tasksManifest = path.join(inputs, 'tasks.mcp.yaml');
export const tasksOpenApi = path.join(inputs, 'tasks.openapi.yaml');

const pick = (samples, key) => samples.map((s) => s[key]);
const emptied = (dir) => () => rmSync(dir, { recursive: true, force: true });

/**
 * One interleaved series of seven processes per round: mcp-gen cold, the peer cold, mcp-gen no-op,
 * mcp-gen --check, mcp-gen after an edit, mcp-gen validate and `node -e ''`. Every cold run writes into
 * a folder emptied just before it (untimed); the no-op and --check runs reuse a project generated once
 * beforehand. The edit run regenerates a project of its own whose handler files exist, after its
 * manifest was saved (untimed) with one tool description changed, each round to another text: the
 * everyday loop of editing the manifest and regenerating.
 */
export async function benchGenerate({ root, scratch, runs, discard, random, peer, progress }) {
  const node = process.execPath;
  const cli = path.join(root, 'bin', 'mcp-gen.js');
  const dir = (name) => path.join(scratch, name);
  const options = { cwd: root, scratch };
  const generate =
    (out, ...flags) =>
    () =>
      timeChecked(node, [cli, 'generate', tasksManifest, '--out', out, ...flags], options);
  mkdirSync(scratch, { recursive: true });
  emptied(dir('warm'))();
  generate(dir('warm'))(); // the project the no-op and --check runs find up to date
  const edited = path.join(scratch, 'edited.mcp.yaml');
  const original = readFileSync(tasksManifest, 'utf8');
  let edits = 0;
  const edit = () => {
    edits += 1;
    const text = original.replace(/description: /, `description: Edit ${edits}. `);
    if (text === original) throw new Error('the bench manifest has no description to edit');
    writeFileSync(edited, text);
  };
  emptied(dir('edit'))();
  edit();
  timeChecked(node, [cli, 'generate', edited, '--out', dir('edit')], options);
  const samples = await interleave(
    {
      cold: { prepare: emptied(dir('cold')), run: generate(dir('cold')) },
      peer: {
        prepare: emptied(dir('peer')),
        run: () => timeChecked(node, [peer.bin, '--input', tasksOpenApi, '--output', dir('peer'), '--force'], options),
      },
      noop: { run: generate(dir('warm')) },
      check: { run: generate(dir('warm'), '--check') },
      edit: {
        prepare: edit,
        run: () => timeChecked(node, [cli, 'generate', edited, '--out', dir('edit')], options),
      },
      validate: { run: () => timeChecked(node, [cli, 'validate', tasksManifest], options) },
      bare: { run: () => timeChecked(node, ['-e', ''], options) },
    },
    { runs, discard, random, onRound: progress },
  );
  const peerLabel = `${peer.name} ${peer.version}, same domain as OpenAPI`;
  return [
    {
      figure: 'cold `generate`, 11 tools: wall time',
      unit: 'ms',
      ours: pick(samples.cold, 'ms'),
      baseline: { label: peerLabel, samples: pick(samples.peer, 'ms') },
      target: { ratioMax: 1.0 },
    },
    {
      figure: 'cold `generate`, 11 tools: CPU (user + system)',
      unit: 'ms',
      ours: pick(samples.cold, 'cpuMs'),
      baseline: { label: peerLabel, samples: pick(samples.peer, 'cpuMs') },
    },
    {
      figure: 'cold `generate`, 11 tools: peak RSS',
      unit: 'MiB',
      ours: pick(samples.cold, 'rssMiB'),
      baseline: { label: peerLabel, samples: pick(samples.peer, 'rssMiB') },
      target: { max: 100 },
    },
    {
      figure: 'no-op `generate` (nothing changed)',
      unit: 'ms',
      ours: pick(samples.noop, 'ms'),
      baseline: { label: 'cold `generate`', samples: pick(samples.cold, 'ms') },
      target: { ratioMax: 0.25 },
    },
    {
      figure: 'no-op `generate`: CPU (user + system)',
      unit: 'ms',
      ours: pick(samples.noop, 'cpuMs'),
      baseline: { label: 'cold `generate`', samples: pick(samples.cold, 'cpuMs') },
    },
    {
      figure: '`generate --check` (up to date)',
      unit: 'ms',
      ours: pick(samples.check, 'ms'),
      baseline: { label: 'cold `generate`', samples: pick(samples.cold, 'ms') },
      target: { ratioMax: 0.25 },
    },
    {
      figure: '`generate` after a manifest edit (handler files exist)',
      unit: 'ms',
      ours: pick(samples.edit, 'ms'),
      baseline: { label: 'cold `generate`', samples: pick(samples.cold, 'ms') },
    },
    {
      figure: '`validate`',
      unit: 'ms',
      ours: pick(samples.validate, 'ms'),
      baseline: { label: "`node -e ''`", samples: pick(samples.bare, 'ms') },
      target: { ratioMax: 2.0 },
    },
    {
      figure: '`validate`: CPU (user + system)',
      unit: 'ms',
      ours: pick(samples.validate, 'cpuMs'),
      baseline: { label: "`node -e ''`", samples: pick(samples.bare, 'cpuMs') },
    },
    {
      figure: '`validate`: peak RSS',
      unit: 'MiB',
      ours: pick(samples.validate, 'rssMiB'),
      baseline: { label: "`node -e ''`", samples: pick(samples.bare, 'rssMiB') },
    },
  ];
}

/** Cold `generate` of synthetic manifests of 500 and 50 tools (scripts/bench/manifests.mjs), interleaved. */
export async function benchScale({ root, scratch, runs, discard, random, progress }) {
  const node = process.execPath;
  const cli = path.join(root, 'bin', 'mcp-gen.js');
  mkdirSync(scratch, { recursive: true });
  const variant = (count) => {
    const manifest = path.join(scratch, `tools-${count}.yaml`);
    writeFileSync(manifest, syntheticManifest(count));
    const out = path.join(scratch, `out-${count}`);
    return {
      prepare: emptied(out),
      run: () => timeChecked(node, [cli, 'generate', manifest, '--out', out], { cwd: root, scratch }),
    };
  };
  const samples = await interleave(
    { large: variant(500), small: variant(50) },
    { runs, discard, random, onRound: progress },
  );
  return [
    {
      figure: 'cold `generate`, 500 tools',
      unit: 'ms',
      ours: pick(samples.large, 'ms'),
      baseline: { label: 'cold `generate`, 50 tools', samples: pick(samples.small, 'ms') },
    },
    {
      figure: 'cold `generate`, 500 tools: peak RSS',
      unit: 'MiB',
      ours: pick(samples.large, 'rssMiB'),
      baseline: { label: 'cold `generate`, 50 tools', samples: pick(samples.small, 'rssMiB') },
    },
  ];
}
