/**
 * `mcp-gen generate`: the whole pipeline, load to write (`--check` and
 * `--dry-run` only compare or list in the write stage), or, over unchanged
 * inputs, the outcome of the run record (up-to-date.ts).
 */
import type { ResolvedOptions } from './config/index.js';
import { hasFailures, type Diagnostic } from './diagnostics/index.js';
import type { GeneratedFile } from './emit/index.js';
import type { ExistingProject } from './load/index.js';
import { loadHandlerChecks, loadProject } from './load/project.js';
import { loadManifestText, loadToolIdentity } from './load/run-record.js';
import { findUpToDate, recordOf, runKey } from './up-to-date.js';
import { inspectWrites, recoverWrites, type Interruption, type WriteReport } from './write/index.js';
import { writeHandlerChecks, writeRunRecord } from './write/run-record.js';

// The pipeline (the validator, the code builders) is imported only by runs that need it: a run over
// unchanged inputs answers from the run record (up-to-date.ts) without it.
const pipeline = () => import('./pipeline.js');

/** The outcome of one generate run. */
export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Null when the run stopped before writing (errors in the manifest or the generated code). */
  readonly report: WriteReport | null;
  /** What an interrupted earlier run left: repaired by a writing run, only found by --check and --dry-run. */
  readonly interrupted: Interruption | null;
  readonly ok: boolean;
}

/** The in-memory half of a run: every file the project should contain, and every problem found. */
export interface BuildResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Empty when the manifest has errors. */
  readonly files: readonly GeneratedFile[];
}

/** load -> ... -> emit, against `existing` (what the output folder holds). */
export async function buildProject(
  options: ResolvedOptions,
  mcpGenVersion: string,
  existing: ExistingProject,
  cwd: string = process.cwd(),
): Promise<BuildResult> {
  const { runPipeline } = await pipeline();
  const { diagnostics, files } = await runPipeline(
    { manifest: options.manifest, cwd, project: { options, mcpGenVersion, existing } },
    'emit',
  );
  return { diagnostics, files };
}

/** Generates (or checks, or lists) the project described by the manifest. */
export async function generateProject(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string = process.cwd(),
): Promise<GenerateResult> {
  // A killed run may have left the folder half-written: repair it before reading the handlers and the marker.
  const interrupted = options.mode === 'write' ? recoverWrites(options.outDir) : inspectWrites(options.outDir);
  // Against a half-written folder every comparison is meaningless: --check only reports the interruption.
  if (options.mode === 'check' && interrupted !== null)
    return { diagnostics: [], report: null, interrupted, ok: false };
  const existing = loadProject(options.outDir);
  const text = loadManifestText(options.manifest, cwd);
  const key = text === null ? null : runKey(options, mcpGenVersion, cwd, text, existing);
  const recorded = key === null ? null : findUpToDate(options.outDir, key);
  if (recorded !== null)
    return {
      diagnostics: recorded.diagnostics,
      report: recorded.report,
      interrupted,
      ok: !hasFailures(recorded.diagnostics, options.strict),
    };
  const { runPipeline } = await pipeline();
  const { diagnostics, written, files, manifest, handlerChecks } = await runPipeline(
    {
      manifest: options.manifest,
      cwd,
      project: { options, mcpGenVersion, existing: { ...existing, handlerChecks: loadHandlerChecks(options.outDir) } },
    },
    'write',
  );
  if (handlerChecks !== undefined) writeHandlerChecks(options.outDir, loadToolIdentity(), handlerChecks);
  if (written === null) return { diagnostics, report: null, interrupted, ok: false };
  // Recorded only when the pipeline read the same manifest text that the key was made of.
  if (text !== null && manifest?.text === text)
    writeRunRecord(options.outDir, recordOf(options, mcpGenVersion, cwd, text, existing, files, written, diagnostics));
  const stale = options.mode === 'check' && written.changes.length > 0;
  return { diagnostics, report: written, interrupted, ok: !stale && !hasFailures(diagnostics, options.strict) };
}
