/**
 * The parse cache: a manifest's data as parsing its text gave it, kept with the hash of that text beside the run
 * record (`parsedManifestPath`), for a large manifest only (`largeManifestChars`): the same text, already parsed
 * by `import` or by the previous run, reads back from JSON instead of being parsed again. Only a manifest that
 * loaded (no YAML error or warning) is kept, and only data that JSON holds unchanged (no `.inf`, `.nan` or -0).
 * Positions come from load's locator, which finds them in the text whatever gave the data.
 *
 * A manifest that also validated without a single diagnostic keeps its review too (lint findings, gate and cost
 * depend on nothing but the data), so the `generate` right after `import` neither validates nor reviews it again.
 */
import type { Manifest } from '../model/manifest.gen.js';
import type { Review } from '../review/index.js';
import { hashTextOnce } from '../util/hash.js';
import { toolIdentity } from './identity.js';
import { asRecord, keepsAsJson, parsedManifestPath, readCacheFile, readCacheHead, saveCacheFile } from './store.js';

/** What the cache knows of one text. */
export interface ParsedEntry {
  readonly data: unknown;
  /** The review of `data`, present when its validation found nothing at all. */
  readonly review?: Review;
}

/** What `text` (the manifest at `absolutePath`) parsed to before, or undefined when the cache has none. */
export function loadParsed(absolutePath: string, text: string): ParsedEntry | undefined {
  const file = parsedManifestPath(absolutePath);
  // `saveParsed` writes the hash before the data: a file for another text (the manifest was edited) is not parsed.
  if (!readCacheHead(file, 512).includes(`"hash":"${hashTextOnce(text)}"`)) return;
  const saved = asRecord(readCacheFile(file));
  if (saved === null || saved.format !== 1 || saved.identity !== toolIdentity() || !('data' in saved)) return;
  if (saved.hash !== hashTextOnce(text)) return;
  return isReview(saved.review) ? { data: saved.data, review: saved.review } : { data: saved.data };
}

/** Saves what `text` parses to, and its review when validating it found nothing; data JSON would change is not. */
export function saveParsed(absolutePath: string, text: string, data: unknown, review: Review | null): void {
  if (!keepsAsJson(data)) return;
  const kept = review !== null && keepsAsJson(review) ? { review } : {};
  saveCacheFile(parsedManifestPath(absolutePath), {
    format: 1,
    identity: toolIdentity(),
    hash: hashTextOnce(text),
    data,
    ...kept,
  });
}

/** The typed manifest and review of an entry that has a review: its data validated without a diagnostic. */
export function reviewedOf(entry: ParsedEntry | undefined): { manifest: Manifest; review: Review } | undefined {
  return entry?.review === undefined ? undefined : { manifest: entry.data as Manifest, review: entry.review };
}

/** The outline of a saved review, checked before it is trusted (a cache file is read as untrusted). */
function isReview(value: unknown): value is Review {
  const review = asRecord(value);
  return (
    review !== null &&
    Array.isArray(review.findings) &&
    Array.isArray(review.gate) &&
    typeof review.failed === 'boolean' &&
    asRecord(review.cost) !== null
  );
}
