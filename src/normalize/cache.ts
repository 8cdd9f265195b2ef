import type { ManifestCache } from '../model/manifest.gen.js';
import type { CacheModel } from '../model/types.js';
import { durationMs } from '../util/duration.js';

/** A cache block; each field falls back to `fallback`'s. */
export function normalizeCache(cache: ManifestCache | undefined, fallback: CacheModel): CacheModel {
  return { ttlMs: durationMs(cache?.ttl, cache?.ttlMs, fallback.ttlMs), scope: cache?.scope ?? fallback.scope };
}
