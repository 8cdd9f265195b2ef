// Benchmark: `mcp-gen generate` on synthetic manifests of 10, 100 and 500 tools, as whole processes:
// the first run into an empty folder, then a no-op rerun (nothing changed, nothing rewritten).
// Usage: npm run bench:generate   (results go to stdout; copy them into docs/benchmarks.md)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { syntheticManifest } from './bench/manifests.mjs';
import { measure } from './bench/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = fileURLToPath(new URL('../.bench/generate/', import.meta.url));

console.log(`node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${os.platform()}`);
console.log('| tools | first run | first run peak RSS | no-op rerun | no-op peak RSS |');
console.log('|---:|---:|---:|---:|---:|');
for (const count of [10, 100, 500]) {
  const dir = `${base}${count}/`;
  const manifest = `${dir}mcp.yaml`;
  const first = [];
  // Each first run needs an empty folder, so it is measured as separate single runs.
  for (let i = 0; i < 3; i++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(manifest, syntheticManifest(count));
    first.push(measure(['bin/mcp-gen.js', 'generate', manifest], { runs: 1, cwd: root }));
  }
  first.sort((a, b) => a.ms - b.ms);
  const rerun = measure(['bin/mcp-gen.js', 'generate', manifest], { runs: 5, cwd: root });
  const med = first[1];
  console.log(`| ${count} | ${med.ms} ms | ${med.rssMb} MiB | ${rerun.ms} ms | ${rerun.rssMb} MiB |`);
}
