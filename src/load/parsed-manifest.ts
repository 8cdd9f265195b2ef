/**
 * The parse cache: a manifest's data as parsing its text gave it, kept with the hash of that text beside the
 * run record (`parsedManifestPath`). Parsing GitHub's 4.6 MB draft with the `yaml` library took two seconds
 * and most of generate's memory; the same text, already parsed by `import` or by the previous run, reads back
 * from JSON in a few milliseconds. Only a parse without any error or warning is kept (write/run-record.ts),
 * so a hit is a manifest that parsed cleanly; its positions come from `createEntryLocator`, which parses only
 * the entries a diagnostic names, and always answers what parsing the whole text answers. Like the run record,
 * this is a cache: whatever it cannot read, it ignores.
 *
 * A manifest that also validated without a single diagnostic keeps its review too (lint findings and gate, which
 * depend on nothing but the data): validating and linting GitHub's draft again cost `generate` 0.4 s after `import`
 * had just done both on the same text.
 */
import { parsedManifestPath } from '../model/layout.js';
import { hashTextOnce } from '../util/hash.js';
import { loadCacheFile, loadToolIdentity } from './run-record.js';

/** What the cache file holds. */
export interface ParsedManifest {
  readonly format: 1;
  /** mcp-gen's identity (`loadToolIdentity`): another build of mcp-gen may parse differently. */
  readonly identity: string;
  /** The hash of the manifest text that parsed to `data`. */
  readonly hash: string;
  readonly data: unknown;
  /** The review of `data` (review/index.ts), present when its validation found nothing at all. */
  readonly review?: SavedReview;
}

/**
 * A review as the cache holds it: load knows only its outline (stages below review do not import it); the pipeline,
 * which knows both, takes it back as the review that write/run-record.ts saved.
 */
export interface SavedReview {
  readonly findings: readonly unknown[];
  readonly gate: readonly unknown[];
  readonly failed: boolean;
}

/** What the cache gives back for a text. */
export interface CachedManifest {
  readonly data: unknown;
  readonly review?: SavedReview;
}

/** What `text` (the manifest at `absolutePath`) parsed to before, or undefined when the cache has none. */
export function loadParsedManifest(absolutePath: string, text: string): CachedManifest | undefined {
  const file = parsedManifestPath(absolutePath);
  const saved = loadCacheFile(file);
  if (saved === null) return undefined;
  try {
    const parsed = JSON.parse(saved) as Partial<ParsedManifest>;
    if (parsed.format !== 1 || parsed.identity !== loadToolIdentity() || !('data' in parsed)) return undefined;
    if (parsed.hash !== hashTextOnce(text)) return undefined;
    return isReview(parsed.review) ? { data: parsed.data, review: parsed.review } : { data: parsed.data };
  } catch {
    return undefined;
  }
}

/** The shape of a saved review, checked before it is trusted (a cache file is read as untrusted). */
function isReview(value: unknown): value is SavedReview {
  if (value === null || typeof value !== 'object') return false;
  const review = value as Record<string, unknown>;
  return Array.isArray(review.findings) && Array.isArray(review.gate) && typeof review.failed === 'boolean';
}
