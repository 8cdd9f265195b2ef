// Benchmark: `mcp-gen validate` on synthetic manifests, measured as whole processes.
// Usage: npm run bench   (results go to stdout; copy them into docs/benchmarks.md)
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { syntheticManifest } from './bench/manifests.mjs';
import { measure } from './bench/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = fileURLToPath(new URL('../.bench/', import.meta.url));
mkdirSync(dir, { recursive: true });

console.log(`node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${os.platform()}`);
console.log('| tools | manifest | validate (median of 5) | peak RSS | exit |');
console.log('|---:|---:|---:|---:|---:|');
for (const count of [10, 100, 500, 2000]) {
  const file = `${dir}validate-${count}.yaml`;
  const text = syntheticManifest(count);
  writeFileSync(file, text);
  const result = measure(['bin/mcp-gen.js', 'validate', file], { cwd: root });
  console.log(`| ${count} | ${(text.length / 1024).toFixed(0)} KiB | ${result.ms} ms | ${result.rssMb} MiB | ${result.status} |`);
}
