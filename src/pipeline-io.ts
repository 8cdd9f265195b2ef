/**
 * What a pipeline run takes and gives: the stage list, its input and its result; `runPipeline` (pipeline.ts) runs it.
 */
import type { ResolvedOptions } from './config/index.js';
import type { Diagnostic } from './diagnostics/index.js';
import type { GeneratedFile, HandlerVerdicts } from './emit/index.js';
import type { ExistingProject, LoadedManifest, LoadResult, PieceMemo } from './load/index.js';
import type { Manifest } from './model/manifest.gen.js';
import type { ServerModel } from './model/types.js';
import type { Review } from './review/index.js';
import type { Memo } from './util/memo.js';
import type { WriteOptions, WriteReport } from './write/index.js';

/** The stages in order; a run goes from `load` up to one of them. */
export const stages = ['load', 'validate', 'normalize', 'review', 'plan', 'emit', 'write'] as const;
export type Stage = (typeof stages)[number];

/** What a run reads: the manifest and, from plan on, the project it generates. */
export interface PipelineInput {
  /** The manifest path as given, relative to `cwd`. */
  readonly manifest: string;
  readonly cwd: string;
  /** The command that runs, as a hint names it (`check`, `verify --manifest`); none names no command. */
  readonly command?: string;
  /** Read the manifest from this file or git revision instead (the baseline of `check`). */
  readonly revision?: string;
  /** The manifest already read, as `import` has the draft it just wrote: nothing is read or parsed again. */
  readonly loaded?: LoadResult;
  /** What earlier runs found out, asked before a stage runs and told what it produced (src/cache/). */
  readonly cache?: PipelineCache;
  readonly project?: {
    readonly options: ResolvedOptions;
    readonly mcpGenVersion: string;
    /** How the write stage runs: the lock the caller holds, its check before the commit, the test seam. */
    readonly write?: WriteOptions;
  } & (
    | {
        /** Only the design report (Markdown and JSON); nothing is planned, so the project is not read. */
        readonly emit: 'report';
      }
    | {
        readonly emit?: 'project';
        /** What the output folder holds, read once by the caller (`generate`, which keys its run record with it). */
        readonly existing: ExistingProject;
      }
  );
}

/** Everything a run produced; a stage that did not run (or could not, after an error) leaves its part empty. */
export interface PipelineResult {
  /** The manifest path as diagnostics show it. */
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly manifest: LoadedManifest | null;
  readonly model: ServerModel | null;
  readonly review: Review | null;
  /** Every file the project should contain, sorted by path; empty on any error. */
  readonly files: readonly GeneratedFile[];
  readonly written: WriteReport | null;
}

/**
 * What `runPipeline` asks of a cache and tells it. Every answer is one the stage would give again (a pure stage's
 * output for the same input), so a run with a cache produces the same bytes and diagnostics as one without.
 */
export interface PipelineCache {
  /** The data that the manifest `text` at `absolutePath` parsed to before, or undefined. */
  parsed(absolutePath: string, text: string): unknown;
  /** What the pieces of the large manifest at `absolutePath` parsed to before (load/piecewise.ts), if it knows. */
  pieces?(absolutePath: string): PieceMemo | undefined;
  /** For a `text` that validated before without a single diagnostic: its typed manifest and its review. */
  reviewed(absolutePath: string, text: string): { readonly manifest: Manifest; readonly review: Review } | undefined;
  /** The verdicts of handler checks known before the run; emit sets each of this run's. */
  readonly handlerVerdicts: HandlerVerdicts;
  /** What a stage gave for an object it saw in an earlier run of the same process (util/memo.ts), if kept. */
  readonly memo?: Memo;
  /** Told the result as it stands after `stage` (load, review), to keep what it may answer next time. */
  observe(stage: Stage, result: PipelineResult): void;
}
