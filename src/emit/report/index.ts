/**
 * Emits the design report: DESIGN.md through Handlebars (a view model built in
 * code, templates only display) and the same content as JSON.
 */
import type { ServerModel } from '../../model/types.js';
import type { Review } from '../../review/index.js';
import { collapseBlankLines, finalParts } from '../../util/file-text.js';
import { stableJson } from '../../util/stable-json.js';
import { markdownBanner } from '../shared/banner.js';
import type { EmitContext } from '../shared/files.js';
import { renderTemplate } from '../shared/handlebars.js';
import { buildReportData, buildReportView, type LineOf } from './view.js';

export type { LineOf } from './view.js';

/**
 * DESIGN.md as Markdown, in parts (util/file-text.ts): the sections around the long lists, then one part per
 * example request, per tool's schema draft and per shared schema, each rendered by its own template.
 */
export function emitReportMarkdown(model: ServerModel, review: Review, lineOf: LineOf, ctx: EmitContext): string[] {
  const view = buildReportView(model, review, lineOf, markdownBanner(ctx).trimEnd(), ctx.memo);
  const parts = [
    renderTemplate(ctx, 'report/DESIGN.md.hbs', view),
    ...view.examples.map((example) => `${example}\n\n`),
    renderTemplate(ctx, 'report/design-schemas.hbs', view),
    ...view.schemas.tools.map((tool) => toolPart(tool, ctx)),
    ...view.schemas.shared.map((shared) => renderTemplate(ctx, 'report/design-shared.hbs', shared)),
    renderTemplate(ctx, 'report/design-tail.hbs', view),
  ];
  // Collapse the blank lines that optional sections leave behind, so the output reads as written by hand.
  return finalParts(collapseBlankLines(parts));
}

/** The report as JSON (sorted keys). */
export function emitReportJson(model: ServerModel, review: Review, lineOf: LineOf): string {
  return stableJson(buildReportData(model, review, lineOf));
}

type ToolView = ReturnType<typeof buildReportView>['schemas']['tools'][number];

/**
 * One tool's part of section 8. Its schemas are a function of the tool (`shownSchemas`), its finding lines are not
 * always (a finding from the whole design may point into a tool's input): a kept rendering is reused only for the
 * very same lines.
 */
function toolPart(tool: ToolView, ctx: EmitContext): string {
  const render = () => renderTemplate(ctx, 'report/design-tool.hbs', tool);
  if (ctx.memo === undefined) return render();
  const kept = ctx.memo.recall('report.tool-part', tool.shownSchemas, () => ({
    findings: tool.findings,
    text: render(),
  }));
  const same =
    kept.findings.length === tool.findings.length && kept.findings.every((line, i) => line === tool.findings[i]);
  return same ? kept.text : render();
}
