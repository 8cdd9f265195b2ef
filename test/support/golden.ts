import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/** True when the run should rewrite golden files instead of comparing (`UPDATE_GOLDEN=1 npm test`). */
export const updateGolden = process.env.UPDATE_GOLDEN === '1';

/** Compares `actual` with the golden file byte for byte, or rewrites it under UPDATE_GOLDEN=1. */
export function expectGolden(file: string, actual: string): void {
  if (updateGolden) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`missing golden file ${file}; run UPDATE_GOLDEN=1 npm test and review the diff`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** The repository root, for paths in tests. */
export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
