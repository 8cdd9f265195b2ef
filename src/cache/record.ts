/**
 * The short way of `generate` over unchanged inputs: a run whose inputs (mcp-gen's own code, the
 * options, the manifest, the handler files, the marker) hash to the key of the recorded run, over an
 * output folder whose files still hash to what that run left, reports what that run reported, without
 * loading the validator or the code builders. Anything else (no record, another key, one byte changed
 * in a generated file, a scaffold file gone) takes the full pipeline, which records its outcome again.
 */
import type { ResolvedOptions } from '../config/index.js';
import type { Diagnostic } from '../diagnostics/index.js';
import type { GeneratedFile } from '../emit/index.js';
import type { ExistingProject } from '../load/project.js';
import { loadRunRecord, loadToolIdentity, projectMatches, type RunRecord } from '../load/run-record.js';
import { markerPath } from '../model/layout.js';
import { hashText, hashTextOnce } from '../util/hash.js';
import type { WriteAction, WriteReport } from '../write/index.js';

/** The hash of every input of a generate run. */
export function runKey(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string,
  manifestText: string,
  existing: ExistingProject,
): string {
  const { manifest, outDir, manifestFromOut, regenerateCommand, mcpGenDependency, starterDependencies } = options;
  const inputs = [
    loadToolIdentity(),
    mcpGenVersion,
    cwd,
    manifest,
    outDir,
    manifestFromOut,
    regenerateCommand,
    mcpGenDependency ?? null,
    starterDependencies ?? null,
    hashTextOnce(manifestText),
    [...existing.handlers],
    existing.previouslyGenerated,
    // The keys of package.json that mcp-gen keeps in step are outputs of the run, so the file is an input.
    existing.packageJson ?? null,
    // So is README.md, whose marked part a run rewrites.
    existing.readme ?? null,
  ];
  return hashText(JSON.stringify(inputs));
}

/** The recorded outcome, when the record matches `key` and the folder still holds what it says. */
export function findUpToDate(
  outDir: string,
  key: string,
): { diagnostics: readonly Diagnostic[]; report: WriteReport } | null {
  const record = loadRunRecord(outDir);
  if (record === null || record.key !== key || !projectMatches(outDir, record)) return null;
  const actions: WriteAction[] = record.files.map((f) =>
    f.ownership === 'scaffold'
      ? { kind: 'keep', path: f.path, ownership: 'scaffold' }
      : { kind: 'unchanged', path: f.path, ownership: f.ownership as WriteAction['ownership'] },
  );
  return { diagnostics: record.diagnostics, report: { actions, changes: [] } };
}

/**
 * The record of a finished run, or null when the next run would not be a plain repeat of it: a file
 * left stale (check, dry-run), or a handler or scaffold file created or moved (the next run plans it
 * differently). `key` is the key of the next run: after a write, the marker lists the new files.
 */
export function recordOf(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string,
  manifestText: string,
  existing: ExistingProject,
  files: readonly GeneratedFile[],
  report: WriteReport,
  diagnostics: readonly Diagnostic[],
): RunRecord | null {
  const settled =
    options.mode === 'write'
      ? report.changes.every((c) => c.ownership === 'generated' || c.ownership === 'stale')
      : report.changes.length === 0;
  const marker = files.find((f) => f.path === markerPath);
  if (!settled || marker === undefined) return null;
  const previouslyGenerated = (JSON.parse(marker.contents) as { files: string[] }).files;
  return {
    format: 1,
    key: runKey(options, mcpGenVersion, cwd, manifestText, { ...existing, previouslyGenerated }),
    files: files.map((f) => ({
      path: f.path,
      ownership: f.ownership,
      hash: f.ownership === 'scaffold' ? null : hashText(f.contents),
    })),
    previouslyGenerated,
    diagnostics,
  };
}
