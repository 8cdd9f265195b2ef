import type { DiagnosticCode } from './codes.js';

/**
 * A problem found after validation (while planning or emitting), before it has
 * a position: either a place in the manifest (a JSON pointer) or a place in a
 * project file (relative to the project root). The pipeline turns findings into
 * located Diagnostics.
 */
export interface Finding {
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly hint?: string;
  readonly at:
    | { readonly pointer: string; readonly target?: 'key' | 'value' }
    | { readonly projectFile: string; readonly line: number; readonly col: number };
}
