/**
 * The run cache, in one place: the run record (a run over unchanged inputs reports the recorded outcome
 * without building, record.ts) and the handler-check cache (a handler file checked before is not parsed
 * again). Both live outside the project, in a folder private to this user (layout.ts `runRecordPath`).
 * `generate` opens it once per run; the cache reads through load/ and writes through write/, so those
 * stay the only stages that touch the disk. Everything here is a cache: nothing it fails to read or save
 * changes a run's outcome, only its cost.
 */
import type { ResolvedOptions } from '../config/index.js';
import type { Diagnostic } from '../diagnostics/index.js';
import type { GeneratedFile } from '../emit/index.js';
import type { ExistingProject, HandlerChecks } from '../load/project.js';
import { loadHandlerChecks } from '../load/project.js';
import { loadManifestBytes, loadToolIdentity, manifestTextOf } from '../load/run-record.js';
import type { WriteReport } from '../write/index.js';
import { writeHandlerChecks, writeRunRecord } from '../write/run-record.js';
import { findUpToDate, recordOf, runKey } from './record.js';

/** What a finished run hands the cache. */
export interface FinishedRun {
  readonly existing: ExistingProject;
  readonly files: readonly GeneratedFile[];
  /** Null when the run stopped before writing. */
  readonly report: WriteReport | null;
  readonly diagnostics: readonly Diagnostic[];
  /** The checks of this run's handler files, when it made any. */
  readonly handlerChecks: HandlerChecks | undefined;
  /** The manifest text the pipeline read, or null when it read none. */
  readonly manifestText: string | null;
}

/** The cache of one generate run over one output folder. */
export interface RunCache {
  /** The hash of the run's inputs: the manifest as it was when the cache was opened, and `existing`. */
  key(existing: ExistingProject): string | null;
  /** The same hash over the manifest as it is on disk now: a plan whose key changed is stale. */
  keyNow(existing: ExistingProject): string | null;
  /** The recorded outcome for `key`, when the folder still holds what that run left. */
  recorded(key: string | null): { diagnostics: readonly Diagnostic[]; report: WriteReport } | null;
  /** Earlier checks of handler files, by file and manifest entry, for a run that builds. */
  handlerChecks(): HandlerChecks;
  /** Saves what a run that built found, for the next run. */
  save(run: FinishedRun): void;
}

/** Opens the cache for a run of `options`; reads the manifest text the run's key is made of. */
export function openRunCache(options: ResolvedOptions, mcpGenVersion: string, cwd: string): RunCache {
  const bytes = loadManifestBytes(options.manifest, cwd);
  const text = bytes === null ? null : manifestTextOf(bytes);
  const keyOf = (manifestText: string | null, existing: ExistingProject) =>
    manifestText === null ? null : runKey(options, mcpGenVersion, cwd, manifestText, existing);
  return {
    key: (existing) => keyOf(text, existing),
    keyNow: (existing) => {
      // The same bytes are the same text: compared, not decoded again (4.6 MB for GitHub's draft).
      const now = loadManifestBytes(options.manifest, cwd);
      return keyOf(now === null ? null : bytes !== null && now.equals(bytes) ? text : manifestTextOf(now), existing);
    },
    recorded: (key) => (key === null ? null : findUpToDate(options.outDir, key)),
    handlerChecks: () => loadHandlerChecks(options.outDir),
    save(run) {
      if (run.handlerChecks !== undefined) writeHandlerChecks(options.outDir, loadToolIdentity(), run.handlerChecks);
      // Recorded only when the pipeline read the same manifest text that the key was made of.
      if (run.report === null || text === null || run.manifestText !== text) return;
      const { existing, files, report, diagnostics } = run;
      writeRunRecord(options.outDir, recordOf(options, mcpGenVersion, cwd, text, existing, files, report, diagnostics));
    },
  };
}
