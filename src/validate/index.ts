/**
 * validate: checks a loaded manifest and reports every problem at once.
 * In: the parsed data plus its locator. Out: sorted Diagnostic[].
 * Never transforms the data, never throws on a half-valid manifest: every rule
 * reads defensively, so one mistake does not hide the next.
 */
import { sortDiagnostics, type Diagnostic } from '../diagnostics/index.js';
import { RuleContext, type ManifestSource } from './context.js';
import { checkNameCollisions, checkRenames } from './rules/names.js';
import { checkPromptPlaceholders } from './rules/prompts.js';
import { checkResources } from './rules/resources.js';
import { checkDurations, checkProtocol, checkRegistry, checkTransportsAndAuth } from './rules/server.js';
import { checkToolHints, checkToolSchemas } from './rules/tools.js';
import { checkShape } from './schema-rules.js';

export type { ManifestSource } from './context.js';
export { implementedVersions } from './rules/server.js';
export { placeholderPattern } from './rules/prompts.js';

/** The rule table, run in this order; the order only matters for readability of the code. */
const rules: readonly ((ctx: RuleContext) => void)[] = [
  checkShape,
  checkNameCollisions,
  checkRenames,
  checkProtocol,
  checkTransportsAndAuth,
  checkDurations,
  checkToolHints,
  checkToolSchemas,
  checkResources,
  checkPromptPlaceholders,
  checkRegistry,
];

/** Runs every rule and returns the diagnostics sorted by line, column and code. */
export function validateManifest(source: ManifestSource): Diagnostic[] {
  const ctx = new RuleContext(source);
  for (const rule of rules) rule(ctx);
  return sortDiagnostics(ctx.diagnostics);
}
