/**
 * The pipeline, as docs/architecture.md lists it: load -> validate -> normalize -> review -> plan -> emit -> write.
 * Each command runs it from load up to the stage it needs (validate: normalize; check: review; report: emit;
 * generate and init: write). Stages live in their own folders; this file only sequences them. emit, with
 * ts-morph and the other code-building libraries, is imported only by runs that reach it.
 */
import path from 'node:path';
import type { ResolvedOptions } from './config/index.js';
import { hasFailures, sortDiagnostics, type Diagnostic } from './diagnostics/index.js';
import type { GeneratedFile } from './emit/index.js';
import { bannerMark } from './emit/shared/banner.js';
import { loadBaseline, loadManifest, loadProject, loadTemplates, type ExistingProject, type LoadedManifest } from './load/index.js';
import { lineLabel, locateFindings } from './locate.js';
import type { ServerModel } from './model/types.js';
import { normalizeManifest } from './normalize/index.js';
import { planProject } from './plan/index.js';
import { reviewModel, type Review } from './review/index.js';
import { validateManifest } from './validate/index.js';
import { writeProject, type WriteReport } from './write/index.js';

/** The stages in order; a run goes from `load` up to one of them. */
export const stages = ['load', 'validate', 'normalize', 'review', 'plan', 'emit', 'write'] as const;
export type Stage = (typeof stages)[number];

/** What a run reads: the manifest and, from plan on, the project it generates. */
export interface PipelineInput {
  /** The manifest path as given, relative to `cwd`. */
  readonly manifest: string;
  readonly cwd: string;
  /** Read the manifest from this file or git revision instead (the baseline of `check`). */
  readonly revision?: string;
  readonly project?: {
    readonly options: ResolvedOptions;
    readonly mcpGenVersion: string;
    /** What the output folder holds; read from disk when not given. */
    readonly existing?: ExistingProject;
    /** `report` emits only the design report (Markdown and JSON) and plans nothing. */
    readonly emit?: 'project' | 'report';
  };
}

/** Everything a run produced; a stage that did not run (or could not, after an error) leaves its part empty. */
export interface PipelineResult {
  /** The manifest path as diagnostics show it. */
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly manifest: LoadedManifest | null;
  readonly model: ServerModel | null;
  readonly review: Review | null;
  /** Every file the project should contain, sorted by path; empty on any error. */
  readonly files: readonly GeneratedFile[];
  readonly written: WriteReport | null;
}

/** Runs load -> ... -> `until`; stops early when a stage finds an error. */
export async function runPipeline(input: PipelineInput, until: Stage): Promise<PipelineResult> {
  const runs = (stage: Stage) => stages.indexOf(stage) <= stages.indexOf(until);
  const loaded = input.revision === undefined ? loadManifest(input.manifest, input.cwd) : loadBaseline(input.revision, input.manifest, input.cwd);
  if (!loaded.ok) return { file: loaded.diagnostics[0]?.file ?? input.manifest, diagnostics: loaded.diagnostics, manifest: null, model: null, review: null, files: [], written: null };
  const { manifest } = loaded;
  const { diagnostics: validated, manifest: typed } = runs('validate') ? validateManifest(manifest) : { diagnostics: [], manifest: null };
  let result: PipelineResult = { file: manifest.file, diagnostics: validated, manifest, model: null, review: null, files: [], written: null };
  if (!runs('normalize') || typed === null) return result;
  const model = normalizeManifest(typed);
  const review = runs('review') ? reviewModel(model, validated) : null;
  result = { ...result, model, review };
  if (!runs('plan') || review === null || input.project === undefined) return result;

  const { options, mcpGenVersion, emit: scope = 'project' } = input.project;
  const existing = scope === 'report' ? null : (input.project.existing ?? loadProject(options.outDir));
  const plan = existing === null ? null : planProject(model, existing.handlers);
  if (!runs('emit')) return result;
  const { emitProject, emitReport } = await import('./emit/index.js');
  const ctx = { manifestPath: options.manifestFromOut, regenerateCommand: options.regenerateCommand, templates: loadTemplates(), mcpGenVersion };
  const report = { review, lineOf: lineLabel(manifest, path.posix.basename(options.manifestFromOut)) };
  const emitted = existing === null || plan === null ? emitReport(model, report, ctx) : await emitProject(model, plan, existing.handlers, report, ctx);
  const diagnostics = sortDiagnostics([...validated, ...locateFindings(emitted.findings, manifest, { outDir: options.outDir, cwd: input.cwd })]);
  if (hasFailures(diagnostics, false)) return { ...result, diagnostics };
  result = { ...result, diagnostics, files: emitted.files };
  if (!runs('write') || existing === null) return result;
  return { ...result, written: writeProject(options.outDir, emitted.files, existing.previouslyGenerated ?? [], options.mode, bannerMark) };
}
