import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateAndCompile } from '../integration/runtime/harness.js';
import { repoRoot } from './paths.js';

/** A server whose manifest requires the config variable FOO: it stops at start without it. */
export const envManifest = [
  'mcpGen: 1',
  'server: { name: env-demo, version: 1.0.0, instructions: Call ping to check the server is up. }',
  'config:',
  '  FOO: { description: A value the server needs to start., type: string, required: true }',
  'tools:',
  '  ping:',
  '    title: Ping',
  '    description: Answer with pong to show that the server is up and configured.',
  '    annotations: { readOnlyHint: true, openWorldHint: false }',
  '    input: { type: object, additionalProperties: false }',
  '',
].join('\n');

/**
 * The FOO server generated into `.test-out/<name>` with its manifest beside it, compiled and bundled into
 * dist/server.mjs as `npm run build` does, with stub handlers; its recorded toolset digest.
 */
export function buildEnvProject(name: string): { readonly dir: string; readonly digest: string } {
  const file = path.join(repoRoot, '.test-out', `${name}.yaml`);
  writeFileSync(file, envManifest);
  const dir = path.dirname(path.dirname(path.dirname(generateAndCompile(file, name, {}))));
  writeFileSync(path.join(dir, 'mcp.yaml'), envManifest);
  const bundle = spawnSync(process.execPath, ['src/generated/bundle.gen.mjs'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (bundle.status !== 0) throw new Error(`bundle failed:\n${bundle.stdout}${bundle.stderr}`);
  const registry = JSON.parse(readFileSync(path.join(dir, 'src', 'generated', 'registry.gen.json'), 'utf8'));
  return { dir, digest: (registry as { toolsetDigest: string }).toolsetDigest };
}

/** The README's Inspector line for stdio, as printed. */
export function inspectorLine(dir: string): string {
  const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
  return readme.split('\n').find((line) => line.startsWith('npx @modelcontextprotocol/inspector@')) ?? '';
}
