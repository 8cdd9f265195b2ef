import type { Diagnostic } from '../diagnostics/index.js';

/** A parsed manifest and the means to point back into its text. */
export interface LoadedManifest {
  /** The path as diagnostics show it: relative to the working directory, forward slashes. */
  readonly file: string;
  /** Absolute path; used to place output next to the manifest, never printed. */
  readonly absolutePath: string;
  readonly text: string;
  readonly data: unknown;
  /** Line and column of the node at a JSON pointer (or its nearest existing parent). */
  readonly locate: (pointer: string, target?: Target) => Position;
  /**
   * Errors in a text that still parsed (duplicate keys): validation reports them with its own, so that every mistake
   * is found in one run, and nothing is generated. Absent when none.
   */
  readonly problems?: readonly Diagnostic[];
}

/** Either a loaded manifest or the diagnostics explaining why there is none. */
export type LoadResult =
  | { readonly ok: true; readonly manifest: LoadedManifest }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** A 1-based line and column in the manifest text. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

/** Which part of a mapping entry a pointer should resolve to. */
export type Target = 'key' | 'value';
