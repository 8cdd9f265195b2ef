/**
 * `mcp-gen check`: the pipeline up to review (validate + lint + gate) and,
 * with a baseline, the baseline up to normalize, to find breaking changes.
 */
import { makeDiagnostic, sortDiagnostics, type Diagnostic } from './diagnostics/index.js';
import type { LoadedManifest } from './load/index.js';
import { locateFindings, locateFirstFindings, type CountedFinding } from './locate.js';
import type { ServerModel } from './model/types.js';
import { runPipeline, type PipelineResult } from './pipeline.js';
import { findBreakingChanges, type Review } from './review/index.js';

/** The outcome of `mcp-gen check`. */
export interface CheckResult {
  readonly diagnostics: readonly Diagnostic[];
  readonly review: Review | null;
  readonly model: ServerModel | null;
  readonly manifest: LoadedManifest | null;
  /** Findings counted but not located (a check printed with a limit: see `checkOf`). */
  readonly counted?: readonly CountedFinding[];
}

/** Validates, lints, evaluates the gate and, with a baseline, finds breaking changes. */
export async function checkManifest(
  manifestPath: string,
  baseline: string | undefined,
  cwd: string,
): Promise<CheckResult> {
  const checked = checkOf(await runPipeline({ manifest: manifestPath, cwd, command: 'check' }, 'review'));
  if (baseline === undefined || checked.model === null || checked.manifest === null) return checked;
  const diagnostics = [...checked.diagnostics];
  const before = await runPipeline({ manifest: manifestPath, cwd, revision: baseline }, 'normalize');
  if (before.manifest === null) {
    diagnostics.push(...before.diagnostics);
  } else if (before.model === null) {
    const errors = before.diagnostics.filter((d) => d.severity === 'error').length;
    diagnostics.push(
      makeDiagnostic(
        'baseline-unreadable',
        { file: before.manifest.file, pointer: '', line: 1, col: 1 },
        `baseline "${baseline}" has ${errors} error(s); check it with "mcp-gen validate"`,
      ),
    );
  } else {
    diagnostics.push(...locateFindings(findBreakingChanges(before.model, checked.model), checked.manifest));
  }
  return { ...checked, diagnostics: sortDiagnostics(diagnostics) };
}

/**
 * The check of a pipeline run that went up to review (as `import` runs it on a draft): its diagnostics and the review's
 * findings, located. With `shown`, for a report that prints every error but only the first `shown` warnings and
 * notes, the findings after those are counted instead of located.
 */
export function checkOf(compiled: PipelineResult, shown?: number): CheckResult {
  const { manifest, model, review, diagnostics: validated } = compiled;
  if (model === null || review === null || manifest === null)
    return { diagnostics: validated, review: null, model: null, manifest };
  if (shown === undefined)
    return {
      diagnostics: sortDiagnostics([...validated, ...locateFindings(review.findings, manifest)]),
      review,
      model,
      manifest,
    };
  const { located, counted } = locateFirstFindings(review.findings, manifest, shown);
  return { diagnostics: sortDiagnostics([...validated, ...located]), review, model, manifest, counted };
}
