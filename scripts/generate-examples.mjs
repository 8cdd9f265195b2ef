// Regenerates every committed copy of generated output: each example (DESIGN.md, contract tests, README and
// package.json parts; the generated code only of examples/demo, the showcase, since the others' src/generated/ is
// not committed and is removed again here) and each golden tree under test/fixtures/valid/*/expected (its computed
// files; the template copies are listed in copies.txt), exactly as `UPDATE_GOLDEN=1 npx vitest run golden` writes
// them. A change to the runtime templates is one edit plus `npm run examples`; test/unit/examples.test.ts and
// test/unit/golden.test.ts fail on any copy that drifts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveOptions } from '../dist/config/index.js';
import { runPipeline } from '../dist/pipeline.js';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const name of readdirSync(path.join(root, 'examples')).sort()) {
  const result = spawnSync(process.execPath, ['bin/mcp-gen.js', 'generate', `examples/${name}/mcp.yaml`], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  if (name !== 'demo') rmSync(path.join(root, 'examples', name, 'src', 'generated'), { recursive: true, force: true });
}

const valid = path.join('test', 'fixtures', 'valid');
for (const name of readdirSync(path.join(root, valid)).sort()) {
  const expected = path.join(valid, name, 'expected');
  const options = resolveOptions({ manifest: path.join(valid, name, 'manifest.yaml'), out: expected }, root);
  const existing = { handlers: new Map(), previouslyGenerated: null };
  const project = { options, mcpGenVersion: '0.0.0-golden', existing };
  const result = await runPipeline({ manifest: options.manifest, cwd: root, project }, 'emit');
  if (result.diagnostics.length > 0) {
    console.error(`${valid}/${name}: the golden manifest has diagnostics; fix it first`);
    process.exit(1);
  }
  rmSync(path.join(root, expected), { recursive: true, force: true });
  // Template copies are not committed: copies.txt lists them with their template (docs/testing.md).
  const copies = result.files.filter((file) => file.copiedFrom !== undefined);
  const listed = copies.map((file) => `${file.path} ${file.copiedFrom}\n`).sort();
  writeFileSync(path.join(root, valid, name, 'copies.txt'), listed.join(''));
  for (const file of result.files.filter((f) => f.copiedFrom === undefined)) {
    const target = path.join(root, expected, ...file.path.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  console.log(`${expected}: ${result.files.length - copies.length} files, ${copies.length} template copies`);
}
