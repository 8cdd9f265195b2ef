/**
 * The pipeline, as docs/architecture.md lists it: load -> validate -> normalize -> review -> plan -> emit -> write.
 * Each command runs it from load up to the stage it needs (validate: normalize; check: review; report: emit;
 * generate and init: write). Stages live in their own folders; this file only sequences them. emit, with
 * ts-morph and the other code-building libraries, is imported only by runs that reach it.
 */
import path from 'node:path';
import { hasFailures, sortDiagnostics } from './diagnostics/index.js';
import { bannerMark } from './emit/shared/banner.js';
import {
  loadBaseline,
  loadTemplates,
  manifestOfData,
  parseManifest,
  readManifest,
  type LoadResult,
} from './load/index.js';
import { lineLabel, locateFindings } from './locate.js';
import { normalizeManifest } from './normalize/index.js';
import { stages, type PipelineInput, type PipelineResult, type Stage } from './pipeline-io.js';
import { planProject } from './plan/index.js';
import { reviewModel } from './review/index.js';
import { validateManifest } from './validate/index.js';
import { writeProject } from './write/index.js';

export { stages, type PipelineCache, type PipelineInput, type PipelineResult, type Stage } from './pipeline-io.js';

/** Runs load -> ... -> `until`; stops early when a stage finds an error. */
export async function runPipeline(input: PipelineInput, until: Stage): Promise<PipelineResult> {
  const runs = (stage: Stage) => stages.indexOf(stage) <= stages.indexOf(until);
  // load
  const loaded = input.loaded ?? load(input);
  if (!loaded.ok)
    return {
      file: loaded.diagnostics[0]?.file ?? input.manifest,
      diagnostics: loaded.diagnostics,
      manifest: null,
      model: null,
      review: null,
      files: [],
      written: null,
    };
  const { manifest } = loaded;
  const { cache } = input;
  let result: PipelineResult = {
    file: manifest.file,
    diagnostics: [],
    manifest,
    model: null,
    review: null,
    files: [],
    written: null,
  };
  cache?.observe('load', result);
  // A text that validated before without a single diagnostic: its typed manifest and review (a function of the
  // data alone) are known.
  const known = runs('review') ? cache?.reviewed(manifest.absolutePath, manifest.text) : undefined;
  // validate: every problem at once; a typed manifest only when none is an error
  const checked =
    known !== undefined
      ? { diagnostics: [], manifest: known.manifest }
      : runs('validate')
        ? validateManifest(manifest, cache?.memo)
        : { diagnostics: [], manifest: null };
  // What load found in a text it could still read comes first, and stops the run as any error does.
  const problems = manifest.problems ?? [];
  const validated =
    problems.length === 0 ? checked.diagnostics : sortDiagnostics([...problems, ...checked.diagnostics]);
  const typed = problems.length === 0 ? checked.manifest : null;
  result = { ...result, diagnostics: validated };
  if (!runs('normalize') || typed === null) return result;
  // normalize, review
  const model = normalizeManifest(typed, cache?.memo);
  const review = runs('review') ? (known?.review ?? reviewModel(model, validated, cache?.memo)) : null;
  result = { ...result, model, review };
  if (review !== null) cache?.observe('review', result);
  if (!runs('plan') || review === null || input.project === undefined) return result;
  // plan: against what the output folder holds (the report needs no plan)
  const { options, mcpGenVersion } = input.project;
  const existing = input.project.emit === 'report' ? null : input.project.existing;
  const plan = existing === null ? null : planProject(model, existing.handlers);
  if (!runs('emit')) return result;
  // emit: one EmitContext for every emitter; findings are located before anything is written
  const { emitProject, emitReport } = await import('./emit/index.js');
  const ctx = {
    manifestPath: options.manifestFromOut,
    regenerateCommand: options.regenerateCommand,
    templates: loadTemplates(),
    mcpGenVersion,
    ...(cache?.memo === undefined ? {} : { memo: cache.memo }),
    ...(options.mcpGenDependency === undefined ? {} : { mcpGenDependency: options.mcpGenDependency }),
    ...(options.starterDependencies === undefined ? {} : { starterDependencies: options.starterDependencies }),
  };
  const report = { review, lineOf: lineLabel(manifest, path.posix.basename(options.manifestFromOut)) };
  const emitted =
    existing === null || plan === null
      ? emitReport(model, report, ctx)
      : await emitProject(model, plan, existing, report, ctx, cache?.handlerVerdicts);
  const diagnostics = sortDiagnostics([
    ...validated,
    ...locateFindings(emitted.findings, manifest, { outDir: options.outDir, cwd: input.cwd }),
  ]);
  if (hasFailures(diagnostics, false)) return { ...result, diagnostics };
  result = { ...result, diagnostics, files: emitted.files };
  // write (or only compare, or only list)
  if (!runs('write') || existing === null) return result;
  return {
    ...result,
    written: writeProject(
      options.outDir,
      emitted.files,
      existing.previouslyGenerated ?? [],
      options.mode,
      bannerMark,
      input.project.write,
    ),
  };
}

/** The manifest of a run: a baseline, or the file, parsed unless a cache knows what its text parses to. */
function load(input: PipelineInput): LoadResult {
  if (input.revision !== undefined) return loadBaseline(input.revision, input.manifest, input.cwd);
  const read = readManifest(input.manifest, input.cwd, input.command);
  if (!read.ok) return read;
  const known = input.cache?.parsed(read.absolutePath, read.text);
  return known === undefined
    ? parseManifest(read.text, read.file, read.absolutePath, input.cache?.pieces?.(read.absolutePath))
    : manifestOfData(read.text, known, read.file, read.absolutePath);
}
