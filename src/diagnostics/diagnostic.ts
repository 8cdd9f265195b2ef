import { codeCatalog, type DiagnosticCode } from './codes.js';
import { compareText } from '../util/compare.js';

/** One problem found in a manifest, located in the user's file. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: 'error' | 'warning' | 'info';
  /** Lower-case start, no final period, user values in double quotes. */
  readonly message: string;
  /** Manifest path as the user should see it (relative to the working directory, forward slashes). */
  readonly file: string;
  /** JSON pointer into the manifest; still meaningful when the key is missing. */
  readonly pointer: string;
  /** 1-based line and column of the YAML node, or of its nearest existing parent. */
  readonly line: number;
  readonly col: number;
  readonly hint?: string;
}

/** Where a diagnostic points, before the code and message are attached. */
export interface Location {
  readonly file: string;
  readonly pointer: string;
  readonly line: number;
  readonly col: number;
}

/** Builds a diagnostic whose severity comes from the catalog. */
export function makeDiagnostic(code: DiagnosticCode, at: Location, message: string, hint?: string): Diagnostic {
  const base = { code, severity: codeCatalog[code].severity, message, ...at };
  return hint === undefined ? base : { ...base, hint };
}

/** Sorted by file, line, column, code and message, with exact duplicates removed. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const sorted = [...diagnostics].sort(
    (a, b) =>
      compareText(a.file, b.file) ||
      a.line - b.line ||
      a.col - b.col ||
      compareText(a.code, b.code) ||
      compareText(a.message, b.message),
  );
  return sorted.filter((d, i) => {
    const prev = sorted[i - 1];
    return !(
      prev &&
      prev.file === d.file &&
      prev.line === d.line &&
      prev.col === d.col &&
      prev.code === d.code &&
      prev.message === d.message
    );
  });
}

/** True when any diagnostic is an error, or a warning under `strict`; notes (`info`) never fail. */
export function hasFailures(diagnostics: readonly Diagnostic[], strict: boolean): boolean {
  return diagnostics.some((d) => d.severity === 'error' || (strict && d.severity === 'warning'));
}
