/**
 * emit: turns the model and the plan into files, in memory.
 * In: ServerModel, Plan, existing handler texts, the review (for DESIGN.md),
 * EmitContext. Out: every output file, sorted by path, plus findings.
 * Emitters return data; nothing here touches the disk.
 */
import type { Finding } from '../diagnostics/index.js';
import type { ExistingProject } from '../load/project.js';
import { designJsonPath, designPath, markerPath } from '../model/layout.js';
import type { ServerModel } from '../model/types.js';
import type { Plan } from '../plan/index.js';
import type { Review } from '../review/index.js';
import { compareText } from '../util/compare.js';
import { forgetLastMatch } from '../util/regexp.js';
import { stableJson } from '../util/stable-json.js';
import { emitBundleScript, emitBundleShims } from './bundle/index.js';
import { emitMcpb } from './bundle/mcpb.js';
import { emitFacade } from './facade/index.js';
import { emitBindings } from './bindings/index.js';
import { emitHandlers, type HandlerVerdicts } from './handlers/index.js';
import { emitRegistry } from './registry/index.js';
import { emitReportJson, emitReportMarkdown, type LineOf } from './report/index.js';
import { emitRuntime } from './runtime/index.js';
import { emitScaffold } from './scaffold/index.js';
import { emitServer } from './server/index.js';
import { emitEnvExample } from './shared/environment.js';
import { type EmitContext, fileOfParts, type GeneratedFile } from './shared/files.js';
import { emitContractTests } from './tests/index.js';
import { emitTypes } from './types/index.js';
import { emitValidators } from './validators/index.js';
import { emitWorkers } from './workers/index.js';

export type { EmitContext, GeneratedFile, Ownership } from './shared/files.js';
export { bannerMark } from './shared/banner.js';
export { registryData } from './registry/index.js';
export { handlerCheckKey, type HandlerVerdicts } from './handlers/index.js';

/** What the design report shows besides the model: the review, and where each finding sits in the manifest. */
export interface ReportInput {
  readonly review: Review;
  readonly lineOf: LineOf;
}

/** Every output file and every finding of one run. */
export interface EmitResult {
  readonly files: readonly GeneratedFile[];
  readonly findings: readonly Finding[];
}

/**
 * Runs every emitter; files come back sorted by path, whatever order emitters ran in. `verdicts` holds the
 * handler checks' verdicts known before the run and is given this run's (emit/handlers).
 */
export async function emitProject(
  model: ServerModel,
  plan: Plan,
  existing: ExistingProject,
  report: ReportInput,
  ctx: EmitContext,
  verdicts: HandlerVerdicts = new Map(),
): Promise<EmitResult> {
  const findings: Finding[] = [...plan.findings];
  const bound = new Set(plan.handlers.filter((h) => h.kind === 'tool' && h.action === 'bind').map((h) => h.name));
  const types = await emitTypes(model, ctx, bound);
  findings.push(...types.diagnostics);
  const workers = emitWorkers(model, ctx);
  const generated: GeneratedFile[] = [
    types.file,
    emitFacade(model, ctx),
    // The review measured every tool as tools/list sends it; the registry cuts its pages by those sizes.
    ...emitRegistry(model, ctx, report.review.context.tools),
    emitServer(model, plan.handlers, ctx),
    ...emitBindings(model, plan.handlers, ctx),
    await emitValidators(
      model.tools.map((t) => ({ name: t.name, inputSchema: t.wireInput, outputSchema: t.wireOutput })),
      ctx,
      new Map(model.schemas.map((s) => [s.name, s.wire])),
    ),
    emitBundleShims(ctx),
    emitBundleScript(ctx),
    ...emitMcpb(model, ctx),
    ...emitRuntime(model, ctx),
    ...emitContractTests(model, ctx),
    emitEnvExample(model, ctx),
    ...workers.filter((file) => file.ownership === 'generated'),
  ];
  const marker: GeneratedFile = {
    path: markerPath,
    contents: stableJson({
      generatedBy: 'mcp-gen',
      manifest: ctx.manifestPath,
      files: [...generated.map((f) => f.path), markerPath].sort(compareText),
    }),
    ownership: 'generated',
  };

  const handlers = await emitHandlers(model, plan, existing.handlers, verdicts);
  findings.push(...handlers.findings);
  const scaffold = emitScaffold(model, ctx, {
    packageJson: existing.packageJson ?? null,
    readme: existing.readme ?? null,
  });
  findings.push(...scaffold.findings);
  // DESIGN.md is generated but not in the marker: it lives beside the manifest, outside the generated locations.
  const scaffolded = workers.filter((file) => file.ownership !== 'generated');
  const files = [
    ...generated,
    marker,
    designMarkdown(model, report, ctx),
    ...scaffold.files,
    ...scaffolded,
    ...handlers.files,
  ].sort((a, b) => compareText(a.path, b.path));
  forgetLastMatch();
  return { files, findings };
}

/** Only the design report, as DESIGN.md and DESIGN.json, for `mcp-gen report`. */
export function emitReport(model: ServerModel, report: ReportInput, ctx: EmitContext): EmitResult {
  const json: GeneratedFile = {
    path: designJsonPath(ctx.manifestPath),
    contents: emitReportJson(model, report.review, report.lineOf),
    ownership: 'generated',
  };
  const files = [designMarkdown(model, report, ctx), json].sort((a, b) => compareText(a.path, b.path));
  forgetLastMatch();
  return { files, findings: [] };
}

function designMarkdown(model: ServerModel, report: ReportInput, ctx: EmitContext): GeneratedFile {
  return fileOfParts(designPath(ctx.manifestPath), emitReportMarkdown(model, report.review, report.lineOf, ctx));
}
