import type { ResolvedOptions } from '../../src/config/index.js';
import type { ExistingProject } from '../../src/load/index.js';
import { runPipeline } from '../../src/pipeline.js';

/** load -> ... -> emit of `options` in process, against `existing` (the output folder): every file and problem. */
export async function buildProject(
  options: ResolvedOptions,
  mcpGenVersion: string,
  existing: ExistingProject,
  cwd: string = process.cwd(),
) {
  const { diagnostics, files } = await runPipeline(
    { manifest: options.manifest, cwd, project: { options, mcpGenVersion, existing } },
    'emit',
  );
  return { diagnostics, files };
}
