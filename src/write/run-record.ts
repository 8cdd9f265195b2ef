import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HandlerChecks } from '../load/project.js';
import { isPrivateFolder, type RunRecord } from '../load/run-record.js';
import { compareText } from '../util/compare.js';
import { handlerChecksPath, runRecordPath } from '../model/layout.js';

/**
 * Saves the run record for `outDir` (whole, by a rename, so a concurrent reader never sees half of it).
 * The record is only a cache: a failure to save it is ignored, and the next run simply builds.
 */
export function writeRunRecord(outDir: string, record: RunRecord | null): void {
  saveCache(runRecordPath(outDir), record);
}

/**
 * Saves the handler checks of the last run for `outDir`, tagged with mcp-gen's identity: only this run's
 * handler files, so the cache never grows past the project.
 */
export function writeHandlerChecks(outDir: string, identity: string, checks: HandlerChecks): void {
  const entries = [...checks].sort((a, b) => compareText(a[0], b[0]));
  saveCache(handlerChecksPath(outDir), entries.length === 0 ? null : { identity, checks: entries });
}

/** Writes `record` as JSON to `file` whole, or removes `file` for null; failures are ignored (a cache). */
function saveCache(file: string | null, record: unknown): void {
  if (file === null) return;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    if (record === null) {
      if (isPrivateFolder(path.dirname(file))) rmSync(file, { force: true });
      return;
    }
    // Private to this user, or not used at all (load/run-record.ts, isPrivateFolder).
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(path.dirname(file))) return;
    // `wx`: a file already at the temporary path (stale, or a planted link) fails the write instead of being followed.
    writeFileSync(temporary, JSON.stringify(record), { flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing to clean up
    }
  }
}
