import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunRecord } from '../load/run-record.js';
import { runRecordPath } from '../model/layout.js';

/**
 * Saves the run record for `outDir` (whole, by a rename, so a concurrent reader never sees half of it).
 * The record is only a cache: a failure to save it is ignored, and the next run simply builds.
 */
export function writeRunRecord(outDir: string, record: RunRecord | null): void {
  const file = runRecordPath(outDir);
  if (file === null) return;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    if (record === null) {
      rmSync(file, { force: true });
      return;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temporary, JSON.stringify(record));
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing to clean up
    }
  }
}
