import type { Memo } from '../../util/memo.js';

/** Who owns an output file, which decides what regeneration may do to it. */
export type Ownership =
  /** Rewritten on every run; carries the banner; lives under src/generated/. */
  | 'generated'
  /** Created when missing, never overwritten: the user's from then on. */
  | 'scaffold'
  /** An existing user file that this run edits safely (a rename), every other byte kept. */
  | 'user-edit';

/** One output file, in memory. Paths are relative to the project root, with forward slashes. */
export interface GeneratedFile {
  readonly path: string;
  readonly contents: string;
  readonly ownership: Ownership;
  /** For a renamed handler: the path the file had before; the writer moves it. */
  readonly movedFrom?: string;
  /**
   * The package template (`runtime/http.gen.ts`) this file is, verbatim under the banner. Golden tests compare such
   * a file with its template instead of a committed copy (docs/testing.md): only computed output is committed.
   */
  readonly copiedFrom?: string;
  /** A large file's text in parts (util/file-text.ts), which the write stage never joins:
   * it takes `parts ?? contents`; `contents` joins them. */
  readonly parts?: readonly string[];
}

/** A generated file given as parts: its `contents` is their join, built only when read (by tests and reports). */
export function fileOfParts(path: string, parts: readonly string[]): GeneratedFile {
  return {
    path,
    ownership: 'generated',
    parts,
    get contents() {
      return parts.join('');
    },
  };
}

/** What every emitter may know besides the model. */
export interface EmitContext {
  /** The manifest path relative to the project root, forward slashes (e.g. `mcp.yaml`). */
  readonly manifestPath: string;
  /** The command that regenerates this project, run from its root. */
  readonly regenerateCommand: string;
  /** Package templates by relative path (runtime sources, Handlebars files). */
  readonly templates: ReadonlyMap<string, string>;
  /** mcp-gen's own version, for the generated package.json's devDependency. */
  readonly mcpGenVersion: string;
  /** The generated package.json's spec for mcp-gen when not `^mcpGenVersion` (e.g. a packed `file:` tarball). */
  readonly mcpGenDependency?: string;
  /** Packages a created package.json lists besides mcp-gen's own (an example's `pg`). */
  readonly starterDependencies?: {
    readonly dependencies: Readonly<Record<string, string>>;
    readonly devDependencies: Readonly<Record<string, string>>;
  };
  /** What an emitter gave for a model object in an earlier run of the same process (util/memo.ts). */
  readonly memo?: Memo;
}
