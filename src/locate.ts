import path from 'node:path';
import { makeDiagnostic, type Diagnostic, type Finding } from './diagnostics/index.js';
import type { LineOf } from './emit/report/index.js';
import { displayPath, type LoadedManifest } from './load/index.js';

/**
 * Turns findings of the stages after validation into located diagnostics: a
 * manifest pointer becomes the manifest's line:col; a project file (generate
 * only) is shown relative to the working directory. Without `project`,
 * project-file findings are dropped: the command has no project.
 */
export function locateFindings(
  findings: readonly Finding[],
  manifest: LoadedManifest,
  project?: { readonly outDir: string; readonly cwd: string },
): Diagnostic[] {
  return findings.flatMap((f) => {
    if ('pointer' in f.at) {
      const { line, col } = manifest.locate(f.at.pointer, f.at.target);
      return [makeDiagnostic(f.code, { file: manifest.file, pointer: f.at.pointer, line, col }, f.message, f.hint)];
    }
    if (project === undefined) return [];
    const file = displayPath(path.join(project.outDir, ...f.at.projectFile.split('/')), project.cwd);
    return [makeDiagnostic(f.code, { file, pointer: '', line: f.at.line, col: f.at.col }, f.message, f.hint)];
  });
}

/** `manifest.yaml:12` for the gate's line column of the report; `label` names the manifest. */
export function lineLabel(manifest: LoadedManifest, label: string): LineOf {
  return (f) => ('pointer' in f.at ? `${label}:${manifest.locate(f.at.pointer, f.at.target).line}` : '—');
}
