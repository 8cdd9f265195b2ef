import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HandlerChecks } from '../load/project.js';
import { isPrivateFolder, loadToolIdentity, type RunRecord } from '../load/run-record.js';
import { compareText } from '../util/compare.js';
import { handlerChecksPath, parsedManifestPath, runRecordPath } from '../model/layout.js';
import { largeManifestChars } from '../model/limits.js';
import type { ParsedManifest } from '../load/parsed-manifest.js';
import type { Review } from '../review/index.js';
import { hashTextOnce } from '../util/hash.js';

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

/** Below this many characters a manifest parses in a few milliseconds: its data is not worth a file in the cache. */
export const parseCacheMinChars = largeManifestChars;

/**
 * Saves `data`, what the manifest `text` at `absolutePath` parses to, for the next run that reads the same text
 * (load/parsed-manifest.ts), when the text is long enough for parsing it to cost (`minChars`). Data that JSON
 * would change (a number it cannot hold: YAML's `.inf`, `.nan`, -0) is not saved. `review`, given only when
 * validating `data` found no diagnostic at all, is saved with it when JSON keeps it too.
 */
export function writeParsedManifest(
  absolutePath: string,
  text: string,
  data: unknown,
  options: { readonly review?: Review | null; readonly minChars?: number } = {},
) {
  if (text.length < (options.minChars ?? parseCacheMinChars) || !keepsAsJson(data)) return;
  const review = options.review != null && keepsAsJson(options.review) ? { review: options.review } : {};
  const record: ParsedManifest = {
    format: 1,
    identity: loadToolIdentity(),
    hash: hashTextOnce(text),
    data,
    ...review,
  };
  saveCache(parsedManifestPath(absolutePath), record);
}

/** True when JSON.stringify then JSON.parse gives `value` back: plain data with finite numbers, no -0. */
function keepsAsJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every(keepsAsJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (!keepsAsJson((value as Record<string, unknown>)[key])) return false;
  return true;
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
