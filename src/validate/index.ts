/**
 * validate: checks a loaded manifest and reports every problem at once.
 * In: the parsed data plus its locator. Out: sorted Diagnostic[] and, when
 * none is an error, the data as a typed Manifest for normalize.
 * Never transforms the data, never throws on a half-valid manifest: every rule
 * reads defensively, so one mistake does not hide the next.
 */
import { sortDiagnostics, type Diagnostic } from '../diagnostics/index.js';
import type { Manifest } from '../model/manifest.gen.js';
import type { Memo } from '../util/memo.js';
import { RuleContext, type ManifestSource } from './context.js';
import { checkBindings } from './rules/bindings.js';
import { checkConfig } from './rules/config.js';
import { checkDynamicContent } from './rules/dynamic.js';
import { checkExamples } from './rules/examples.js';
import { checkNameCollisions, checkPrototypeNames, checkRenames } from './rules/names.js';
import { checkPromptPlaceholders } from './rules/prompts.js';
import { checkIcons, checkResourceMetadata } from './rules/metadata.js';
import { checkResources } from './rules/resources.js';
import { checkDurations, checkProtocol, checkRegistry, checkTransportsAndAuth } from './rules/server.js';
import { checkToolHints, checkToolSchemas } from './rules/tools.js';
import { checkSchemaKeywords } from './rules/schema-keywords.js';
import { checkSharedSchemas } from './rules/shared-schemas.js';
import { checkTargets } from './rules/targets.js';
import { checkToolsets } from './rules/toolsets.js';
import { checkShape } from './schema-rules.js';

export type { ManifestSource } from './context.js';
export { implementedVersions } from './rules/server.js';
export { placeholderPattern } from './rules/prompts.js';

/** The rule table, run in this order; the order only matters for readability of the code. */
const rules: readonly ((ctx: RuleContext) => void)[] = [
  checkShape,
  checkNameCollisions,
  checkPrototypeNames,
  checkRenames,
  checkProtocol,
  checkTransportsAndAuth,
  checkDurations,
  checkToolHints,
  checkToolSchemas,
  checkSharedSchemas,
  checkSchemaKeywords,
  checkExamples,
  checkResources,
  checkIcons,
  checkResourceMetadata,
  checkDynamicContent,
  checkPromptPlaceholders,
  checkRegistry,
  checkConfig,
  checkBindings,
  checkToolsets,
  checkTargets,
];

/** The verdict on one manifest. */
export interface ValidationResult {
  /** Sorted by line, column and code. */
  readonly diagnostics: readonly Diagnostic[];
  /** The manifest, typed; null when any diagnostic is an error. */
  readonly manifest: Manifest | null;
}

/** Runs every rule; the manifest comes back typed only when it has the schema's shape and no rule found an error. */
export function validateManifest(source: ManifestSource, memo?: Memo): ValidationResult {
  const ctx = new RuleContext(source, memo);
  for (const rule of rules) rule(ctx);
  const diagnostics = sortDiagnostics(ctx.diagnostics);
  return { diagnostics, manifest: diagnostics.some((d) => d.severity === 'error') ? null : ctx.manifest };
}
