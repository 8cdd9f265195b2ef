import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { makeDiagnostic } from '../diagnostics/index.js';
import { loadManifest, parseManifest, type LoadResult } from './manifest.js';

/**
 * Loads the baseline manifest for `check --baseline`: a file path, or else a
 * git revision under which the manifest exists at the same path as now.
 */
export function loadBaseline(baseline: string, manifestPath: string, cwd: string): LoadResult {
  const asFile = path.resolve(cwd, baseline);
  if (existsSync(asFile) && statSync(asFile).isFile()) return loadManifest(baseline, cwd);
  const manifest = path.resolve(cwd, manifestPath);
  try {
    const dir = path.dirname(manifest);
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const relative = path.relative(top, manifest).split(path.sep).join('/');
    // `--` would end options; a ref starting with "-" is refused outright so it can never be an option.
    if (baseline.startsWith('-')) throw new Error('not a revision');
    const text = execFileSync('git', ['show', `${baseline}:${relative}`], {
      cwd: top,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return parseManifest(text, `${baseline}:${relative}`);
  } catch {
    const at = { file: baseline, pointer: '', line: 1, col: 1 };
    return {
      ok: false,
      diagnostics: [
        makeDiagnostic(
          'baseline-unreadable',
          at,
          `baseline "${baseline}" is neither a readable manifest file ` +
            `nor a git revision holding "${path.basename(manifestPath)}"`,
          'pass a manifest file, or a git ref such as "origin/main"',
        ),
      ],
    };
  }
}
