import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * Gives the test file a fresh folder `root` and a private cache folder in it (`MCP_GEN_CACHE_DIR`, restored after
 * the file), so that no other test's cache entry is read or replaced. Returns the cache folder.
 */
export function useCacheDir(root: string): string {
  const cacheDir = path.join(root, 'cache');
  let saved: string | undefined;
  beforeAll(() => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    saved = process.env.MCP_GEN_CACHE_DIR;
    process.env.MCP_GEN_CACHE_DIR = cacheDir;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.MCP_GEN_CACHE_DIR;
    else process.env.MCP_GEN_CACHE_DIR = saved;
  });
  return cacheDir;
}
