/**
 * The run record: what the last complete run over an output folder produced, kept outside the project
 * (`runRecordPath` in the layout module). A run whose inputs hash to the recorded key, over a folder
 * whose files still hash to what was recorded, reports the recorded outcome without building anything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/index.js';
import { runRecordPath } from '../model/layout.js';
import { compareText } from '../util/compare.js';
import { hashText } from '../util/hash.js';

/** One file of a project at rest: generated files by the hash of their content, scaffold files only present. */
export interface RecordedFile {
  readonly path: string;
  /** The emitted file's ownership (`generated`, `scaffold`, ...), as the write report shows it. */
  readonly ownership: string;
  /** Null for a scaffold file: the user's, kept whatever it holds. */
  readonly hash: string | null;
}

/** What a run over unchanged inputs reports. */
export interface RunRecord {
  readonly format: 1;
  /** Hash of every input of the run: mcp-gen's own code, the options, the manifest, the handlers, the marker. */
  readonly key: string;
  /** Every file a run plans, in the order it plans them. */
  readonly files: readonly RecordedFile[];
  /** The marker's list: a listed file that is no longer planned but exists again would be removed. */
  readonly previouslyGenerated: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
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

/** The text of a cache file (run record, handler checks), or null when absent, unreadable or in a shared folder. */
export function loadCacheFile(file: string | null): string | null {
  if (file === null || !isPrivateFolder(path.dirname(file))) return null;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The record for `outDir`, or null when there is none or it cannot be read. */
export function loadRunRecord(outDir: string): RunRecord | null {
  const text = loadCacheFile(runRecordPath(outDir));
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<RunRecord>;
    return parsed.format === 1 &&
      typeof parsed.key === 'string' &&
      Array.isArray(parsed.files) &&
      Array.isArray(parsed.diagnostics) &&
      Array.isArray(parsed.previouslyGenerated)
      ? (parsed as RunRecord)
      : null;
  } catch {
    return null;
  }
}

/** The manifest's bytes, or null when it cannot be read (the full run reports why). */
export function loadManifestBytes(manifestPath: string, cwd: string): Buffer | null {
  try {
    return readFileSync(path.resolve(cwd, manifestPath));
  } catch {
    return null;
  }
}

/** The manifest's text as load reads it, from its bytes. */
export function manifestTextOf(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** True when every recorded file is on disk as recorded and no file the marker lists but no longer plans is back. */
export function projectMatches(outDir: string, record: RunRecord): boolean {
  const at = (relative: string) => path.join(outDir, ...relative.split('/'));
  for (const file of record.files) {
    const stat = statSync(at(file.path), { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile()) return false;
    if (file.hash !== null && hashText(readFileSync(at(file.path))) !== file.hash) return false;
  }
  const planned = new Set(record.files.map((f) => f.path));
  return record.previouslyGenerated.every(
    (old) => planned.has(old) || statSync(at(old), { throwIfNoEntry: false }) === undefined,
  );
}

let identity: string | undefined;

/**
 * A hash of the running mcp-gen itself: its compiled modules, its templates and its package.json, so
 * that any rebuild, not only a new version, invalidates every record.
 */
export function loadToolIdentity(): string {
  if (identity !== undefined) return identity;
  // Bundled (scripts/bundle-cli.mjs), this module runs from dist/bundle/, which holds all the code that runs;
  // compiled, from dist/load/, and the code is the rest of dist/. Hashing only that halves what is read.
  const here = new URL('./', import.meta.url);
  const bundled = here.pathname.endsWith('/bundle/');
  const code = bundled ? here : new URL('../', import.meta.url);
  const root = new URL('../../', import.meta.url);
  const parts: string[] = [];
  // The bundle script records a hash of the bundle's files at build (dist/bundle/code-hash.txt): reading and
  // hashing 1.5 MB of code took a tenth of a no-op run.
  const recorded = bundled ? readRecordedHash(new URL('code-hash.txt', here)) : '';
  const walk = (dir: URL, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => compareText(a.name, b.name))) {
      if (entry.isDirectory() && !bundled && prefix === 'code/' && entry.name === 'bundle') continue;
      if (entry.isDirectory()) walk(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
      else if (!entry.name.endsWith('.d.ts'))
        parts.push(`${prefix}${entry.name}`, hashText(readFileSync(new URL(entry.name, dir))));
    }
  };
  if (recorded === '') walk(code, 'code/');
  else parts.push(recorded);
  walk(new URL('templates/', root), 'templates/');
  parts.push(hashText(readFileSync(new URL('package.json', root))));
  identity = hashText(parts.join('\n'));
  return identity;
}

function readRecordedHash(file: URL): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
