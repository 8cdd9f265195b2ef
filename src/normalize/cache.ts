import type { ManifestCache } from '../model/manifest.gen.js';
import type { CacheModel } from '../model/types.js';
import { parseDuration } from '../util/duration.js';

/** Milliseconds of a `ttl`/`ttlMs` pair (validate allows at most one), or `fallback` when neither is given. */
export function durationMs(ttl: string | undefined, ttlMs: number | undefined, fallback: number): number {
  if (ttlMs !== undefined) return ttlMs;
  if (ttl === undefined) return fallback;
  const ms = parseDuration(ttl);
  // The schema's duration pattern is the parser's; validate reported anything else.
  if (ms === undefined) throw new Error(`internal error: duration "${ttl}" passed validation but does not parse`);
  return ms;
}

/** A cache block; each field falls back to `fallback`'s. */
export function normalizeCache(cache: ManifestCache | undefined, fallback: CacheModel): CacheModel {
  return { ttlMs: durationMs(cache?.ttl, cache?.ttlMs, fallback.ttlMs), scope: cache?.scope ?? fallback.scope };
}
