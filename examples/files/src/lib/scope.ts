/**
 * The directory scope: every path a client names is relative to one directory, given as server
 * configuration in the FILES_ROOT environment variable (not the deprecated Roots feature).
 *
 * This module holds the lexical half of the rules: no absolute path, no drive letter, no backslash, no NUL,
 * no ".." segment. The physical half, opening each component relative to the directory before it without
 * following links, is walk.ts; what is then done with the opened file or directory is files.ts.
 */
import { promises as fs, type Stats } from 'node:fs';

/** The environment variable naming the scope directory. */
export const rootEnv = 'FILES_ROOT';

/** The largest file `read` returns. */
export const maxReadBytes = 1024 * 1024;

/** A path refused by the scope rules; the message is meant for the client. */
export class ScopeError extends Error {
  override readonly name = 'ScopeError';
}

/** The scope itself is misconfigured (FILES_ROOT unset or not a directory): a server problem, not the client's. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A path inside the scope that does not exist. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';

  constructor(
    message: string,
    /** True when a component on the way exists but is not a directory. */
    readonly notDirectory = false,
  ) {
    super(message);
  }
}

/** The scope `useScope` chose in place of FILES_ROOT, if any. */
let chosen: string | undefined;

/** Sets the scope directory in place of FILES_ROOT: src/setup.ts does, for the contract tests' throwaway scope. */
export function useScope(dir: string): void {
  chosen = dir;
}

/** The real path of the scope directory (symbolic links resolved). */
export async function scopeRoot(environment: NodeJS.ProcessEnv = process.env): Promise<string> {
  const configured = chosen ?? environment[rootEnv];
  if (configured === undefined || configured === '') {
    throw new ConfigError(`${rootEnv} is not set: start the server with ${rootEnv}=<directory> to choose the directory it may use.`);
  }
  let real: string;
  let stats: Stats;
  try {
    real = await fs.realpath(configured);
    stats = await fs.stat(real);
  } catch {
    throw new ConfigError(`${rootEnv} does not name an existing directory.`);
  }
  if (!stats.isDirectory()) throw new ConfigError(`${rootEnv} does not name a directory.`);
  return real;
}

/**
 * The segments of a client path, checked lexically. "" and "." name the scope itself. The path is quoted
 * back in messages with JSON.stringify, so control characters cannot forge lines.
 */
export function segmentsOf(requested: string): string[] {
  const quoted = JSON.stringify(requested);
  if (requested.includes('\u0000')) throw new ScopeError(`${quoted} contains a NUL character.`);
  if (requested.startsWith('/') || /^[A-Za-z]:/.test(requested)) {
    throw new ScopeError(`${quoted} is an absolute path; paths are relative to the scope directory.`);
  }
  if (requested.includes('\\')) throw new ScopeError(`${quoted} contains a backslash; separate segments with /.`);
  const segments = requested.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new ScopeError(`${quoted} leaves the scope directory; ".." is not allowed.`);
  return segments;
}

/** The client-facing form of a path: segments joined with /, or "." for the scope itself. */
export function displayOf(segments: readonly string[]): string {
  return segments.length === 0 ? '.' : segments.join('/');
}

/** The error code of a failed system call, if any. */
export function code(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** Decodes a percent-encoded URI template variable; a malformed encoding is refused. */
export function decodeVariable(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ScopeError('The path in the URI is not valid percent-encoding.');
  }
}
