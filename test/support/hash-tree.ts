import type { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

/** Feeds every file under `dir` to `hash`, in name order: its path relative to the repository, then its bytes. */
export function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) hashTree(hash, full);
    else
      hash
        .update(`${path.relative(repoRoot, full)}\0`)
        .update(readFileSync(full))
        .update('\0');
  }
}
