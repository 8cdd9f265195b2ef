/**
 * What a pipeline run takes and gives: the stage list, its input and its result; `runPipeline` (pipeline.ts) runs it.
 */
import type { ResolvedOptions } from './config/index.js';
import type { Diagnostic } from './diagnostics/index.js';
import type { GeneratedFile } from './emit/index.js';
import type { ExistingProject, HandlerChecks, LoadedManifest, LoadResult } from './load/index.js';
import type { ServerModel } from './model/types.js';
import type { Review } from './review/index.js';
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
        /** What the output folder holds, read once by the caller (`generate`), which also keys its cache with it. */
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
  /** The review when validation found no diagnostic at all: what the parse cache may keep with the data. */
  readonly cacheableReview?: Review;
  /** Every file the project should contain, sorted by path; empty on any error. */
  readonly files: readonly GeneratedFile[];
  readonly written: WriteReport | null;
  /** Outcomes of handler checks, for the next run's cache (runs that emitted a project). */
  readonly handlerChecks?: HandlerChecks;
}
