/**
 * Emits the design report: DESIGN.md through Handlebars (a view model built in
 * code, templates only display) and the same content as JSON.
 */
import type { ServerModel } from '../../model/types.js';
import type { Review } from '../../review/index.js';
import { stableJson } from '../../util/stable-json.js';
import { markdownBanner } from '../shared/banner.js';
import type { EmitContext } from '../shared/files.js';
import { renderTemplate } from '../shared/handlebars.js';
import { finalText } from '../shared/ts-text.js';
import { buildReportData, buildReportView, type LineOf } from './view.js';

export type { LineOf } from './view.js';

/** DESIGN.md as Markdown. */
export function emitReportMarkdown(model: ServerModel, review: Review, lineOf: LineOf, ctx: EmitContext): string {
  const view = buildReportView(model, review, lineOf, markdownBanner(ctx).trimEnd());
  // Collapse the blank lines that optional sections leave behind, so the output reads as written by hand.
  return finalText(renderTemplate(ctx, 'report/DESIGN.md.hbs', view).replace(/\n{3,}/g, '\n\n'));
}

/** The report as JSON (sorted keys). */
export function emitReportJson(model: ServerModel, review: Review, lineOf: LineOf): string {
  return stableJson(buildReportData(model, review, lineOf));
}
