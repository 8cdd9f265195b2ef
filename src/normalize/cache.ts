import type { CacheModel } from '../model/types.js';
import { parseDuration } from '../util/duration.js';
import { isRecord } from '../util/guards.js';

/** A cache block with `ttl`/`ttlMs` and `scope`, each falling back to `fallback`. */
export function normalizeCache(value: unknown, fallback: CacheModel): CacheModel {
  const cache = isRecord(value) ? value : {};
  const ttlMs = typeof cache.ttlMs === 'number' ? cache.ttlMs : typeof cache.ttl === 'string' ? parseDuration(cache.ttl) ?? fallback.ttlMs : fallback.ttlMs;
  const scope = cache.scope === 'public' || cache.scope === 'private' ? cache.scope : fallback.scope;
  return { ttlMs, scope };
}
