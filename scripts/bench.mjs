// `npm run bench`: every benchmark figure of docs/benchmarks.md in one run, as whole processes,
// interleaved in a seeded random order, each row a median with its interquartile range and each
// comparison paired round by round with a distribution-free 95% confidence interval. Writes the
// table between the results markers of docs/benchmarks.md (a full set of groups only) and the raw
// samples to .bench/results.json.
//
// Usage: npm run bench [-- --quick] [--only generate,scale,watch,dev,stdio,http,soak] [--seed 1] [--runs N]
//        [--no-write]
//        [--duration S]
//   --quick     few rounds and short HTTP slices: a smoke test of the script, not a measurement
//   --only      a subset of the groups (the docs are then left alone); `soak` runs only when named here
//   --runs      rounds per group for generate, scale, watch and stdio (overrides the defaults)
//   --duration  seconds of the soak (default 600): the HTTP server's RSS under 32 connections, over time
//   --no-write  print the table, leave docs/benchmarks.md alone
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setWatchdog } from './bench-http/processes.mjs';
import { benchGenerate, benchScale } from './bench/generate-rows.mjs';
import { benchHttp, CONNECTIONS } from './bench/http-rows.mjs';
import { benchOpenApi } from './bench/openapi-rows.mjs';
import { ensurePeer } from './bench/peer.mjs';
import { requireGnuTime } from './bench/run.mjs';
import { seededRandom } from './bench/stats.mjs';
import { benchSoak } from './bench/soak-rows.mjs';
import { benchStdio } from './bench/stdio-rows.mjs';
import { formatTable, writeBetweenMarkers } from './bench/table.mjs';
import { benchDev } from './bench/dev-rows.mjs';
import { benchWatch } from './bench/watch-rows.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = path.join(root, '.bench');
const GROUPS = ['generate', 'openapi', 'scale', 'watch', 'dev', 'stdio', 'http', 'soak'];
/** What a run without `--only` measures: the soak takes ten minutes and is asked for by name. */
const DEFAULT_GROUPS = GROUPS.filter((group) => group !== 'soak');
const FULL = {
  generate: { runs: 21, discard: 2 },
  openapi: { runs: 5, discard: 1 },
  scale: { runs: 9, discard: 1 },
  watch: { runs: 21, discard: 2 },
  dev: { runs: 15, discard: 1 },
  stdio: { runs: 31, discard: 2 },
  http: { durationS: 20, slices: 10, warmupS: 3 },
  soak: { durationS: 600, intervalS: 10, warmupS: 60 },
};
const QUICK = {
  generate: { runs: 3, discard: 0 },
  openapi: { runs: 1, discard: 0 },
  scale: { runs: 1, discard: 0 },
  watch: { runs: 4, discard: 1 },
  dev: { runs: 2, discard: 1 },
  stdio: { runs: 3, discard: 1 },
  http: { durationS: 2, slices: 2, warmupS: 1 },
  soak: { durationS: 20, intervalS: 5, warmupS: 5 },
};

function usage(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string' },
    duration: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const selected = values.only === undefined ? DEFAULT_GROUPS : values.only.split(',').map((g) => g.trim());
for (const group of selected)
  if (!GROUPS.includes(group)) usage(`--only: unknown group "${group}"; the groups are ${GROUPS.join(', ')}`);
const seed = Number(values.seed);
if (!Number.isInteger(seed) || seed < 0) usage(`--seed must be a non-negative integer, got "${values.seed}"`);
const params = structuredClone(values.quick ? QUICK : FULL);
if (values.runs !== undefined) {
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 201)
    usage(`--runs must be an integer from 1 to 201, got "${values.runs}"`);
  for (const group of ['generate', 'openapi', 'scale', 'watch', 'dev', 'stdio']) params[group].runs = runs;
}
if (values.duration !== undefined) {
  const duration = Number(values.duration);
  if (!Number.isInteger(duration) || duration < params.soak.intervalS || duration > 3600)
    usage(`--duration must be an integer from ${params.soak.intervalS} to 3600 seconds, got "${values.duration}"`);
  params.soak.durationS = duration;
}

const log = (line) => process.stderr.write(`bench: ${line}\n`);
const progress = (group) => (round, total) => log(`${group}: round ${round} of ${total}`);

function git(...args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', timeout: 10_000 }).trim();
}

/** The commit measured, and how many files under src/, templates/, bin/ and scripts/ differ from it. */
function checkout() {
  try {
    const dirty = git('status', '--porcelain', '--', 'src', 'templates', 'bin', 'scripts')
      .split('\n')
      .filter(Boolean).length;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty === 0 ? '' : ` + ${dirty} uncommitted file(s)`}`;
  } catch {
    return 'unknown (no git)';
  }
}

function versionOf(pkg) {
  return JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function parameters() {
  const g = params;
  const parts = [`seed ${seed}`];
  if (selected.includes('generate'))
    parts.push(`generate: ${count(g.generate.runs, 'round')} (+${g.generate.discard} discarded) of 7 processes`);
  if (selected.includes('openapi'))
    parts.push(`import + generate vs the peer: ${count(g.openapi.runs, 'round')} (+${g.openapi.discard})`);
  if (selected.includes('scale')) parts.push(`500 vs 50 tools: ${count(g.scale.runs, 'round')} (+${g.scale.discard})`);
  if (selected.includes('watch')) parts.push(`--watch: ${count(g.watch.runs, 'save')} (+${g.watch.discard})`);
  if (selected.includes('dev')) parts.push(`dev: ${count(g.dev.runs, 'round')} of two saves (+${g.dev.discard})`);
  if (selected.includes('stdio'))
    parts.push(`stdio: ${count(g.stdio.runs, 'round')} (+${g.stdio.discard}) of 6 spawns`);
  if (selected.includes('http'))
    parts.push(
      `HTTP: ${CONNECTIONS} connections, ${g.http.warmupS} s warm-up per server, then ` +
        `${count(g.http.slices, 'slice')} of ${g.http.durationS / g.http.slices} s per server`,
    );
  if (selected.includes('soak'))
    parts.push(
      `soak: ${CONNECTIONS} connections for ${g.soak.durationS} s in intervals of ${g.soak.intervalS} s, ` +
        `warm-up ${g.soak.warmupS} s`,
    );
  return parts.join('; ');
}

async function main() {
  requireGnuTime();
  mkdirSync(benchDir, { recursive: true });
  // A generous bound for the whole run; every step has its own, shorter one.
  setWatchdog(
    (values.quick ? 30 : 90) * 60_000 * (params.generate.runs > 41 ? 3 : 1) + params.soak.durationS * 1000 * 2,
  );
  const loadBefore = os.loadavg();
  const peer = selected.includes('generate') || selected.includes('openapi') ? ensurePeer(benchDir) : null;
  const context = (group) => ({
    root,
    scratch: path.join(benchDir, group),
    random: seededRandom(seed * 31 + GROUPS.indexOf(group)),
    progress: progress(group),
    log: (l) => log(`${group}: ${l}`),
  });
  const rows = [];
  const raw = {};
  let soakBlock = null;
  const peerVersions = [];
  for (const group of selected) {
    log(`${group}...`);
    const ctx = context(group);
    if (group === 'generate') rows.push(...(await benchGenerate({ ...ctx, ...params.generate, peer })));
    if (group === 'openapi') rows.push(...(await benchOpenApi({ ...ctx, ...params.openapi, peer })));
    if (group === 'scale') rows.push(...(await benchScale({ ...ctx, ...params.scale })));
    if (group === 'watch') rows.push(...(await benchWatch({ ...ctx, ...params.watch })));
    if (group === 'dev') rows.push(...(await benchDev({ ...ctx, ...params.dev })));
    if (group === 'stdio') rows.push(...(await benchStdio({ ...ctx, ...params.stdio })));
    if (group === 'http') {
      const http = await benchHttp({ ...ctx, ...params.http });
      rows.push(...http.rows);
      raw.httpPoints = http.points;
      peerVersions.push(...http.versions);
    }
    if (group === 'soak') {
      const soak = await benchSoak({ ...ctx, ...params.soak });
      raw.soak = soak.points;
      soakBlock = `${soak.table}\n\n${soak.summary}.`;
    }
  }
  const loadAfter = os.loadavg();
  const load = (l) => l.map((n) => n.toFixed(2)).join(' / ');
  const cpu = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  const versions = [
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/node',
    'zod',
    'autocannon',
    'typescript',
  ].map((p) => `${p} ${versionOf(p)}`);
  versions.unshift(...peerVersions);
  const mcpGen = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  const block = [
    values.quick
      ? '**Smoke run (`--quick`): a handful of rounds on a busy machine, to check that the script works ' +
        'end to end. These numbers measure nothing; see "How the recorded numbers were taken" below.**'
      : '**Full run.**',
    '',
    `Command: \`node ` +
      `scripts/bench.mjs${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(' ')}` : ''}\`. ` +
      `Checkout ${checkout()}.`,
    `Parameters: ${parameters()}.`,
    `Machine: ${os.availableParallelism()} CPUs (nproc), ${cpu}, ${os.platform()} ` +
      `${os.release()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}. ` +
      `Load average (1 / 5 / 15 min): ${load(loadBefore)} before, ${load(loadAfter)} after.`,
    `Versions: mcp-gen ${mcpGen}${peer === null ? '' : `, ${peer.name} ${peer.version}`}, ` +
      `${versions.join(', ')}; peak RSS and CPU time from GNU time.`,
    '',
    ...(rows.length === 0 ? [] : [formatTable(rows)]),
    ...(soakBlock === null ? [] : ['', soakBlock]),
  ].join('\n');
  writeFileSync(
    path.join(benchDir, 'results.json'),
    `${JSON.stringify({ argv: process.argv.slice(2), seed, params, loadBefore, loadAfter, rows, raw }, null, 2)}\n`,
  );
  console.log(block);
  if (values['no-write'] || values.only !== undefined) {
    log(
      `docs/benchmarks.md left alone (${values['no-write'] ? '--no-write' : '--only runs a subset'}); ` +
        'raw samples in .bench/results.json',
    );
  } else {
    writeBetweenMarkers(path.join(root, 'docs', 'benchmarks.md'), block);
    log('wrote the table into docs/benchmarks.md; raw samples in .bench/results.json');
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
