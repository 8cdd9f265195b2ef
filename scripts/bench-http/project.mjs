// Builds the generated benchmark server the way a user would: `mcp-gen generate` into an empty
// folder, real handlers over the stubs, then the project's own tsconfig. Module resolution walks up
// to this repository's node_modules, so the project uses the same SDK build as the comparison server.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const manifestPath = path.join(here, 'manifest.yaml');
export const sdkServerPath = path.join(here, 'sdk-server.mjs');

function run(command, args, timeoutMs) {
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', timeout: timeoutMs });
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} failed ` +
        `(${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/**
 * Generates, fills in and compiles a benchmark project into `outDir`; returns its entry point. By
 * default the two-tool project (manifest.yaml, handlers/); the catalog scenario passes its own.
 */
export function buildGeneratedProject(
  outDir,
  { manifest = manifestPath, handlers = path.join(here, 'handlers') } = {},
) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  run(process.execPath, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', manifest, '--out', outDir], 120_000);
  for (const file of readdirSync(handlers)) {
    copyFileSync(path.join(handlers, file), path.join(outDir, 'src', 'handlers', 'tools', file));
  }
  run(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', path.join(outDir, 'tsconfig.json')], 180_000);
  return path.join(outDir, 'dist', 'src', 'main.js');
}
