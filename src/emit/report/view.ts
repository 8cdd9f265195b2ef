/**
 * The report's view model: every section computed from the model and the
 * review, already sorted and formatted. The template only places these strings;
 * it decides nothing.
 */
import type { Finding } from '../../diagnostics/index.js';
import { protocolVersion } from '../../model/defaults.js';
import { environmentVariables } from '../../model/environment.js';
import type { ServerModel } from '../../model/types.js';
import type { Review } from '../../review/index.js';
import { environmentTable } from '../shared/environment.js';
import { code, inline } from '../shared/markdown.js';
import {
  discoverySection,
  requestExamples,
  requestSection,
  resultSection,
  roundTripSection,
} from './view-contracts.js';
import { destructiveList, gateTable, primitiveMap, statePlan, transportPlan, verificationTable } from './view-plans.js';
import { schemaDraft } from './view-schemas.js';
import { verificationPlan } from '../shared/verification.js';
import { metadataTable } from './view-metadata.js';
import { contextSection } from './view-context.js';
import type { Memo } from '../../util/memo.js';

/** The environment the server reads: the table of the README, or a sentence saying there is none. */
function configurationSection(model: ServerModel) {
  const count = environmentVariables(model).length;
  return count === 0
    ? { summary: 'the server reads no environment variables.', table: '' }
    : {
        summary:
          `${count} environment variable${count === 1 ? '' : 's'}, checked when the server starts (one error ` +
          'names every missing or invalid one); secret values are never printed or written.',
        table: environmentTable(model),
      };
}

/** Where a finding sits in the manifest, for the gate's "line" column. */
export type LineOf = (finding: Finding) => string;

/** Builds the view model of DESIGN.md. */
export function buildReportView(model: ServerModel, review: Review, lineOf: LineOf, banner: string, memo?: Memo) {
  const counts = { PASS: 0, WARN: 0, FAIL: 0 };
  for (const item of review.gate) counts[item.status]++;
  return {
    banner,
    title: inline(model.server.title ?? model.server.name),
    name: code(model.server.name),
    version: code(model.server.version),
    protocolVersion,
    verdict: review.failed ? '**FAIL**' : counts.WARN > 0 ? '**PASS with warnings**' : '**PASS**',
    counts: `${counts.PASS} pass, ${counts.WARN} warn, ${counts.FAIL} fail`,
    primitiveMap: primitiveMap(model, memo),
    metadata: metadataTable(model),
    discovery: discoverySection(model).json,
    request: requestSection(model),
    result: resultSection(model),
    roundTrip: roundTripSection(model),
    state: statePlan(model),
    transport: transportPlan(model),
    configuration: configurationSection(model),
    examples: requestExamples(model),
    schemas: schemaDraft(model, review.findings, memo),
    destructive: destructiveList(model),
    verification: verificationTable(model),
    gate: gateTable(review.gate, lineOf),
    context: contextSection(model, review),
  };
}

/** The same content as data, for `--format json`. */
export function buildReportData(model: ServerModel, review: Review, lineOf: LineOf) {
  return {
    server: { name: model.server.name, version: model.server.version, title: model.server.title },
    verdict: review.failed ? 'FAIL' : review.gate.some((g) => g.status === 'WARN') ? 'WARN' : 'PASS',
    discovery: discoverySection(model).data,
    gate: review.gate.map((g) => ({
      id: g.id,
      title: g.title,
      status: g.status,
      reason: g.reason,
      line: g.cause === null ? null : lineOf(g.cause),
    })),
    findings: review.findings.map((f) => ({ code: f.code, message: f.message, line: lineOf(f) })),
    verification: verificationPlan(model),
    toolsListCost: review.cost,
    toolCosts: review.context.tools,
    hostLimits: review.context.breaks,
    primitives: {
      tools: model.tools.map((t) => ({
        name: t.name,
        title: t.title,
        annotations: t.annotations,
        destructive: t.destructive,
        approval: t.approval,
        scopes: t.scopes,
      })),
      resources: model.resources.map((r) => ({ name: r.name, uri: r.uri, uriTemplate: r.uriTemplate, cache: r.cache })),
      prompts: model.prompts.map((p) => ({
        name: p.name,
        arguments: p.arguments.map((a) => a.name),
        messages: p.messages !== null,
      })),
    },
    // The same list as the Markdown's configuration table; secrets never carry a default here either.
    environment: environmentVariables(model),
    handles: model.handles.map((h) => ({
      name: h.name,
      issuedBy: h.issuedBy,
      consumedBy: h.consumedBy,
      ttlMs: h.ttlMs,
    })),
  };
}
