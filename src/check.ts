/**
 * The design review commands: `mcp-gen check` (validate + lint + gate, and
 * breaking changes against a baseline) and `mcp-gen report` (DESIGN.md).
 */
import path from 'node:path';
import { makeDiagnostic, sortDiagnostics, type Diagnostic } from './diagnostics/index.js';
import { emitReportJson, emitReportMarkdown, type LineOf } from './emit/report/index.js';
import { loadBaseline, loadTemplates, type LoadedManifest } from './load/index.js';
import { locateFindings } from './locate.js';
import type { ServerModel } from './model/types.js';
import { normalizeManifest } from './normalize/index.js';
import { compileManifest } from './pipeline.js';
import { findBreakingChanges, reviewModel, type Review } from './review/index.js';
import { validateManifest } from './validate/index.js';

/** `manifest.yaml:12` for the gate's line column. */
export function lineLabel(manifest: LoadedManifest, label: string): LineOf {
  return (f) => ('pointer' in f.at ? `${label}:${manifest.locate(f.at.pointer, f.at.target).line}` : '—');
}

/** The outcome of `mcp-gen check`. */
export interface CheckResult {
  readonly diagnostics: readonly Diagnostic[];
  readonly review: Review | null;
  readonly model: ServerModel | null;
  readonly manifest: LoadedManifest | null;
}

/** Validates, lints, evaluates the gate and, with a baseline, finds breaking changes. */
export function checkManifest(manifestPath: string, baseline: string | undefined, cwd: string): CheckResult {
  const compiled = compileManifest(manifestPath, cwd);
  if (compiled.model === null || compiled.manifest === null) return { diagnostics: compiled.diagnostics, review: null, model: null, manifest: compiled.manifest };
  const review = reviewModel(compiled.model, compiled.diagnostics);
  const diagnostics = [...compiled.diagnostics, ...locateFindings(review.findings, compiled.manifest)];
  if (baseline !== undefined) {
    const before = loadBaseline(baseline, manifestPath, cwd);
    if (!before.ok) diagnostics.push(...before.diagnostics);
    else {
      const problems = validateManifest(before.manifest).filter((d) => d.severity === 'error');
      if (problems.length > 0) {
        diagnostics.push(makeDiagnostic('baseline-unreadable', { file: before.manifest.file, pointer: '', line: 1, col: 1 }, `baseline "${baseline}" has ${problems.length} error(s); check it with "mcp-gen validate"`));
      } else {
        diagnostics.push(...locateFindings(findBreakingChanges(normalizeManifest(before.manifest.data), compiled.model), compiled.manifest));
      }
    }
  }
  return { diagnostics: sortDiagnostics(diagnostics), review, model: compiled.model, manifest: compiled.manifest };
}

/** DESIGN.md (or its JSON form) for a manifest; `label` names the manifest in the report. */
export function renderReport(check: CheckResult, format: 'md' | 'json', manifestFromOut: string, regenerateCommand: string): string | null {
  if (check.model === null || check.review === null || check.manifest === null) return null;
  const lineOf = lineLabel(check.manifest, path.posix.basename(manifestFromOut));
  if (format === 'json') return emitReportJson(check.model, check.review, lineOf);
  const ctx = { manifestPath: manifestFromOut, regenerateCommand, templates: loadTemplates(), mcpGenVersion: '' };
  return emitReportMarkdown(check.model, check.review, lineOf, ctx);
}
