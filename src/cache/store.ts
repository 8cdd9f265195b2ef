/**
 * The cache's files: JSON kept outside the project (never committed, never compared), under `MCP_GEN_CACHE_DIR` or
 * the system's temporary folder, in a folder only this user may write to (else it is not used); an empty
 * `MCP_GEN_CACHE_DIR` turns every cache off. Every read and every save here may fail without changing a run's
 * outcome, only its cost: a file that cannot be read is a miss, a file that cannot be saved is left out.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The run record of the output folder `outDir`, one file per folder; null when the caches are off. */
export function runRecordPath(outDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = env.MCP_GEN_CACHE_DIR ?? path.join(os.tmpdir(), `mcp-gen-cache-${process.getuid?.() ?? 'user'}`);
  if (dir === '') return null;
  return path.join(dir, `${createHash('sha256').update(path.resolve(outDir)).digest('hex').slice(0, 32)}.json`);
}

/** Beside the run record: a manifest's parsed data, by the path of the manifest (parsed.ts). */
export function parsedManifestPath(manifestPath: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return runRecordPath(manifestPath, env)?.replace(/\.json$/, '.manifest.json') ?? null;
}

/** Beside the parse cache: what each piece of a large manifest parsed to, by the manifest's path (pieces.ts). */
export function piecesPath(manifestPath: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return runRecordPath(manifestPath, env)?.replace(/\.json$/, '.pieces.json') ?? null;
}

/** Beside the run record: the verdicts of the handler checks of the output folder `outDir` (index.ts). */
export function handlerChecksPath(outDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return runRecordPath(outDir, env)?.replace(/\.json$/, '.handlers.json') ?? null;
}

/**
 * True when `dir` is a folder only this user can write to. The cache folder sits in the system's shared
 * temporary folder by default: one that another user created (or could write to) could hold records
 * forged to hide findings, or links that redirect the writes, so it is neither read nor written. Where
 * there are no user ids (Windows), the temporary folder is the user's own.
 */
export function isPrivateFolder(dir: string): boolean {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) return false;
  const uid = process.getuid?.();
  return uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0);
}

/** The JSON a cache file holds, or undefined when it is absent, unreadable, not JSON or in a shared folder. */
export function readCacheFile(file: string | null): unknown {
  if (file === null || !isPrivateFolder(path.dirname(file))) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The first `length` bytes of a cache file as text (empty when it cannot be read): enough to see the fields a
 * record writes first, so a file for another text is not read and parsed whole only to be dropped.
 */
export function readCacheHead(file: string | null, length: number): string {
  if (file === null || !isPrivateFolder(path.dirname(file))) return '';
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(length);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, length, 0));
  } catch {
    return '';
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Writes `record` as JSON to `file` whole, by a rename, or removes `file` for null; failures are ignored. */
export function saveCacheFile(file: string | null, record: unknown): void {
  if (file === null) return;
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    if (record === null) {
      if (isPrivateFolder(path.dirname(file))) rmSync(file, { force: true });
      return;
    }
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

/** True when JSON.stringify then JSON.parse gives `value` back: plain data with finite numbers, no -0. */
export function keepsAsJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every(keepsAsJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (!keepsAsJson((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** A plain object read from JSON, or null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
