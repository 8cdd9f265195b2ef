/**
 * `mcp-gen check`: the pipeline up to review (validate + lint + gate) and,
 * with a baseline, the baseline up to normalize, to find breaking changes.
 */
import { makeDiagnostic, sortDiagnostics, type Diagnostic } from './diagnostics/index.js';
import type { LoadedManifest } from './load/index.js';
import { locateFindings } from './locate.js';
import type { ServerModel } from './model/types.js';
import { runPipeline } from './pipeline.js';
import { findBreakingChanges, type Review } from './review/index.js';

/** The outcome of `mcp-gen check`. */
export interface CheckResult {
  readonly diagnostics: readonly Diagnostic[];
  readonly review: Review | null;
  readonly model: ServerModel | null;
  readonly manifest: LoadedManifest | null;
}

/** Validates, lints, evaluates the gate and, with a baseline, finds breaking changes. */
export async function checkManifest(manifestPath: string, baseline: string | undefined, cwd: string): Promise<CheckResult> {
  const { manifest, model, review, diagnostics: validated } = await runPipeline({ manifest: manifestPath, cwd }, 'review');
  if (model === null || review === null || manifest === null) return { diagnostics: validated, review: null, model: null, manifest };
  const diagnostics = [...validated, ...locateFindings(review.findings, manifest)];
  if (baseline !== undefined) {
    const before = await runPipeline({ manifest: manifestPath, cwd, revision: baseline }, 'normalize');
    if (before.manifest === null) {
      diagnostics.push(...before.diagnostics);
    } else if (before.model === null) {
      const errors = before.diagnostics.filter((d) => d.severity === 'error').length;
      diagnostics.push(makeDiagnostic('baseline-unreadable', { file: before.manifest.file, pointer: '', line: 1, col: 1 }, `baseline "${baseline}" has ${errors} error(s); check it with "mcp-gen validate"`));
    } else {
      diagnostics.push(...locateFindings(findBreakingChanges(before.model, model), manifest));
    }
  }
  return { diagnostics: sortDiagnostics(diagnostics), review, model, manifest };
}
