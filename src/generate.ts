/**
 * `mcp-gen generate`: the whole pipeline, load to write (`--check` and
 * `--dry-run` only compare or list in the write stage).
 */
import type { ResolvedOptions } from './config/index.js';
import { hasFailures, type Diagnostic } from './diagnostics/index.js';
import type { GeneratedFile } from './emit/index.js';
import type { ExistingProject } from './load/index.js';
import { runPipeline } from './pipeline.js';
import type { WriteReport } from './write/index.js';

/** The outcome of one generate run. */
export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Null when the run stopped before writing (errors in the manifest or the generated code). */
  readonly report: WriteReport | null;
  readonly ok: boolean;
}

/** The in-memory half of a run: every file the project should contain, and every problem found. */
export interface BuildResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Empty when the manifest has errors. */
  readonly files: readonly GeneratedFile[];
}

/** load -> ... -> emit, against `existing` (what the output folder holds). */
export async function buildProject(options: ResolvedOptions, mcpGenVersion: string, existing: ExistingProject, cwd: string = process.cwd()): Promise<BuildResult> {
  const { diagnostics, files } = await runPipeline({ manifest: options.manifest, cwd, project: { options, mcpGenVersion, existing } }, 'emit');
  return { diagnostics, files };
}

/** Generates (or checks, or lists) the project described by the manifest. */
export async function generateProject(options: ResolvedOptions, mcpGenVersion: string, cwd: string = process.cwd()): Promise<GenerateResult> {
  const { diagnostics, written } = await runPipeline({ manifest: options.manifest, cwd, project: { options, mcpGenVersion } }, 'write');
  if (written === null) return { diagnostics, report: null, ok: false };
  const stale = options.mode === 'check' && written.changes.length > 0;
  return { diagnostics, report: written, ok: !stale && !hasFailures(diagnostics, options.strict) };
}
