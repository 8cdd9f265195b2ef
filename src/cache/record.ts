/**
 * The run record, the short way of `generate` over unchanged inputs: a run whose inputs (mcp-gen's own code, the
 * options, the manifest, the handler files, the marker) hash to the key of the recorded run, over an output folder
 * whose files still hash to what that run left, reports what that run reported, without loading the validator or
 * the code builders. Anything else (no record, another key, one byte changed in a generated file, a scaffold file
 * gone) takes the full pipeline, which records its outcome again.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedOptions } from '../config/index.js';
import type { Diagnostic } from '../diagnostics/index.js';
import type { GeneratedFile } from '../emit/index.js';
import type { ExistingProject } from '../load/index.js';
import { markerPath } from '../model/layout.js';
import { hashFileText } from '../util/file-text.js';
import { hashText } from '../util/hash.js';
import { hashFileBytes, type WriteAction, type WriteReport } from '../write/index.js';
import { toolIdentity } from './identity.js';
import { asRecord, readCacheFile, runRecordPath, saveCacheFile } from './store.js';

/** One file of a project at rest: generated files by the hash of their content, scaffold files only present. */
interface RecordedFile {
  readonly path: string;
  /** The emitted file's ownership (`generated`, `scaffold`, ...), as the write report shows it. */
  readonly ownership: string;
  /** Null for a scaffold file: the user's, kept whatever it holds. */
  readonly hash: string | null;
}

/** What a run over unchanged inputs reports. */
interface RunRecord {
  readonly format: 1;
  /** Hash of every input of the run: mcp-gen's own code, the options, the manifest, the handlers, the marker. */
  readonly key: string;
  /** Every file a run plans, in the order it plans them. */
  readonly files: readonly RecordedFile[];
  /** The marker's list: a listed file that is no longer planned but exists again would be removed. */
  readonly previouslyGenerated: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The hash of every input of a generate run. */
export function runKey(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string,
  /** `hashText` of the manifest's text (`loadManifestHash`). */
  manifestHash: string,
  existing: ExistingProject,
): string {
  const { manifest, outDir, manifestFromOut, regenerateCommand, mcpGenDependency, starterDependencies } = options;
  const inputs = [
    toolIdentity(),
    mcpGenVersion,
    cwd,
    manifest,
    outDir,
    manifestFromOut,
    regenerateCommand,
    mcpGenDependency ?? null,
    starterDependencies ?? null,
    manifestHash,
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
 * Saves the record of a finished run, or removes the old one when the next run would not be a plain repeat of
 * it: a file left stale (check, dry-run), or a handler or scaffold file created or moved (the next run plans it
 * differently). The key is the key of the next run: after a write, the marker lists the new files.
 */
export function saveRunRecord(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string,
  run: {
    readonly manifestHash: string;
    readonly existing: ExistingProject;
    readonly files: readonly GeneratedFile[];
    readonly report: WriteReport;
    readonly diagnostics: readonly Diagnostic[];
  },
): void {
  const { manifestHash, existing, files, report, diagnostics } = run;
  const settled =
    options.mode === 'write'
      ? report.changes.every((c) => c.ownership === 'generated' || c.ownership === 'stale')
      : report.changes.length === 0;
  const marker = files.find((f) => f.path === markerPath);
  if (!settled || marker === undefined) {
    saveCacheFile(runRecordPath(options.outDir), null);
    return;
  }
  const previouslyGenerated = (JSON.parse(marker.contents) as { files: string[] }).files;
  const record: RunRecord = {
    format: 1,
    key: runKey(options, mcpGenVersion, cwd, manifestHash, { ...existing, previouslyGenerated }),
    files: files.map((f) => ({
      path: f.path,
      ownership: f.ownership,
      hash: f.ownership === 'scaffold' ? null : hashFileText(f.parts ?? f.contents),
    })),
    previouslyGenerated,
    diagnostics,
  };
  saveCacheFile(runRecordPath(options.outDir), record);
}

/** The record for `outDir`, or null when there is none or it cannot be read. */
function loadRunRecord(outDir: string): RunRecord | null {
  const parsed = asRecord(readCacheFile(runRecordPath(outDir)));
  return parsed !== null &&
    parsed.format === 1 &&
    typeof parsed.key === 'string' &&
    Array.isArray(parsed.files) &&
    Array.isArray(parsed.diagnostics) &&
    Array.isArray(parsed.previouslyGenerated)
    ? (parsed as unknown as RunRecord)
    : null;
}

/**
 * True when every recorded file is on disk as recorded and no file the marker lists but no longer plans is back.
 * A file is what is at its path itself: a link there is no match (the write stage replaces it, never reading its
 * target), and a file standing where a folder was means the files below it are gone (`ENOTDIR`).
 */
function projectMatches(outDir: string, record: RunRecord): boolean {
  const at = (relative: string) => path.join(outDir, ...relative.split('/'));
  const entry = (relative: string) => {
    try {
      return lstatSync(at(relative), { throwIfNoEntry: false });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw error;
    }
  };
  for (const file of record.files) {
    if (entry(file.path)?.isFile() !== true) return false;
    if (file.hash !== null && hashFileBytes(at(file.path)) !== file.hash) return false;
  }
  const planned = new Set(record.files.map((f) => f.path));
  return record.previouslyGenerated.every((old) => planned.has(old) || entry(old) === undefined);
}
