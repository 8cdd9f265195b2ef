/**
 * The whole pipeline of `mcp-gen generate`:
 *   load -> validate -> normalize -> plan -> emit -> write
 * Findings from plan and emit are located (manifest line:col, or a project
 * file) and merged with validation diagnostics before anything is written.
 */
import path from 'node:path';
import type { ResolvedOptions } from './config/index.js';
import { hasFailures, sortDiagnostics, type Diagnostic } from './diagnostics/index.js';
import { locateFindings } from './locate.js';
import { bannerMark, emitProject, type GeneratedFile } from './emit/index.js';
import { loadProject, loadTemplates, type ExistingProject } from './load/index.js';
import { planProject } from './plan/index.js';
import { lineLabel } from './check.js';
import { emitReportMarkdown } from './emit/report/index.js';
import { compileManifest } from './pipeline.js';
import { compareText } from './util/compare.js';
import { reviewModel } from './review/index.js';
import { inspectWrites, recoverWrites, writeProject, type Interruption, type WriteReport } from './write/index.js';

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

/** load -> validate -> normalize -> plan -> emit, against `existing` (what the output folder holds). */
export async function buildProject(options: ResolvedOptions, mcpGenVersion: string, existing: ExistingProject, cwd: string = process.cwd()): Promise<BuildResult> {
  const compiled = compileManifest(options.manifest, cwd);
  if (compiled.model === null || compiled.manifest === null) return { diagnostics: compiled.diagnostics, files: [] };
  const plan = planProject(compiled.model, existing.handlers);
  const ctx = { manifestPath: options.manifestFromOut, regenerateCommand: options.regenerateCommand, templates: loadTemplates(), mcpGenVersion };
  const emitted = await emitProject(compiled.model, plan, existing.handlers, ctx);
  const review = reviewModel(compiled.model, compiled.diagnostics);
  const design = { path: designPath(options.manifestFromOut), contents: emitReportMarkdown(compiled.model, review, lineLabel(compiled.manifest, path.posix.basename(options.manifestFromOut)), ctx), ownership: 'generated' as const };
  const files = [...emitted.files, design].sort((a, b) => compareText(a.path, b.path));
  const diagnostics = sortDiagnostics([...compiled.diagnostics, ...locateFindings(emitted.findings, compiled.manifest, { outDir: options.outDir, cwd })]);
  return { diagnostics, files: diagnostics.some((d) => d.severity === 'error') ? [] : files };
}

/** DESIGN.md sits next to the manifest, or at the project root when the manifest lives outside it. */
export function designPath(manifestFromOut: string): string {
  const dir = path.posix.dirname(manifestFromOut);
  return dir === '.' || dir.startsWith('..') ? 'DESIGN.md' : `${dir}/DESIGN.md`;
}

/** Generates (or checks, or lists) the project described by the manifest. */
export async function generateProject(options: ResolvedOptions, mcpGenVersion: string, cwd: string = process.cwd()): Promise<GenerateResult> {
  // A killed run may have left the folder half-written: repair it before reading the handlers and the marker.
  const interrupted = options.mode === 'write' ? recoverWrites(options.outDir) : inspectWrites(options.outDir);
  // Against a half-written folder every comparison is meaningless: --check only reports the interruption.
  if (options.mode === 'check' && interrupted !== null) return { diagnostics: [], report: null, interrupted, ok: false };
  const existing = loadProject(options.outDir);
  const { diagnostics, files } = await buildProject(options, mcpGenVersion, existing, cwd);
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics, report: null, interrupted, ok: false };
  const report = writeProject(options.outDir, files, existing.previouslyGenerated ?? [], options.mode, bannerMark);
  const stale = options.mode === 'check' && report.changes.length > 0;
  return { diagnostics, report, interrupted, ok: !stale && !hasFailures(diagnostics, options.strict) };
}
