/**
 * `mcp-gen generate`: the whole pipeline, load to write (`--check` and
 * `--dry-run` only compare or list in the write stage), or, over unchanged
 * inputs, the outcome of the run record (the run cache, cache/).
 */
import path from 'node:path';
import type { ResolvedOptions } from './config/index.js';
import { hasFailures, type Diagnostic } from './diagnostics/index.js';
import { openRunCache, type WarmCache } from './cache/index.js';
import { decideMcpGenInstall } from './load/origin.js';
import { fileOnPath, hasProjectFile, loadProject } from './load/project.js';
import { scaffoldPaths } from './model/layout.js';
import {
  inspectWrites,
  lockProject,
  recoverWrites,
  WriteError,
  type Interruption,
  type WriteFaults,
  type WriteOptions,
  type WriteReport,
} from './write/index.js';

// The pipeline (the validator, the code builders) is imported only by runs that need it: a run over
// unchanged inputs answers from the run record (cache/) without it.
const pipeline = () => import('./pipeline.js');

/** The outcome of one generate run. */
export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Null when the run stopped before writing (errors in the manifest or the generated code). */
  readonly report: WriteReport | null;
  /** What an interrupted earlier run left: repaired by a writing run, only found by --check and --dry-run. */
  readonly interrupted: Interruption | null;
  readonly ok: boolean;
}

/** How many times a run plans again when its inputs change on disk before its commit. */
const plans = 3;

/** The manifest or a handler file changed between a run's load and its commit: the plan is stale. */
class InputsChanged extends WriteError {}

/**
 * Generates (or checks, or lists) the project described by the manifest. A writing run holds the
 * project lock from before it reads the project to after its commit, so two runs never interleave;
 * just before the commit it reads its inputs again, and plans again (up to `plans` times) when the
 * manifest or a handler file changed meanwhile, so a stale plan is never applied. `faults` is the
 * write stage's test seam; `warm` is what a process that generates again and again keeps between its runs.
 */
export async function generateProject(
  given: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string = process.cwd(),
  faults: WriteFaults = {},
  warm?: WarmCache,
): Promise<GenerateResult> {
  const file = fileOnPath(given.outDir);
  if (file !== null) {
    const shown = (at: string) => path.relative(cwd, at) || '.';
    const where = file === path.resolve(given.outDir) ? '' : ` under the file "${shown(file)}"`;
    throw new WriteError(
      `the project folder "${shown(given.outDir)}" is ${where === '' ? 'a file' : 'a path'}${where}, not a folder; ` +
        'pass --out a folder (it is created when it does not exist)',
    );
  }
  // A package.json this run creates asks for mcp-gen as init's would (load/origin.ts), so that npm install works.
  const options =
    given.mcpGenDependency !== undefined || hasProjectFile(given.outDir, scaffoldPaths.packageJson)
      ? given
      : { ...given, mcpGenDependency: decideMcpGenInstall(given.outDir, 'generate').spec };
  if (options.mode !== 'write') {
    const interrupted = inspectWrites(options.outDir);
    // Against a half-written folder every comparison is meaningless: --check only reports the interruption.
    if (options.mode === 'check' && interrupted !== null)
      return { diagnostics: [], report: null, interrupted, ok: false };
    return generateOnce(options, mcpGenVersion, cwd, interrupted, faults, warm);
  }
  const lock = await lockProject(options.outDir);
  try {
    // A killed run may have left the folder half-written: repair it before reading the handlers and the marker.
    const interrupted = recoverWrites(options.outDir, faults);
    for (let plan = 1; ; plan++) {
      try {
        return await generateOnce(options, mcpGenVersion, cwd, interrupted, { ...faults, locked: true }, warm);
      } catch (error) {
        if (!(error instanceof InputsChanged)) throw error;
        if (plan === plans)
          throw new WriteError(
            `the manifest or a handler file changed on disk while generate ran, ${plans} times; ` +
              'nothing was written\n  hint: run generate again once the edits are saved',
          );
      }
    }
  } finally {
    lock.release();
  }
}

/**
 * Runs the pipeline over the manifest as it is, up to emit, into `warm` alone: nothing is written or recorded. A
 * watcher whose first run the run record answered computed nothing; primed, its first save costs one tool's work.
 */
export async function primeWarmCache(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string,
  warm: WarmCache,
): Promise<void> {
  const cache = openRunCache(options, mcpGenVersion, cwd, {}, warm);
  const existing = loadProject(options.outDir);
  const { runPipeline } = await pipeline();
  const project = { options, mcpGenVersion, existing };
  await runPipeline(
    { manifest: options.manifest, cwd, cache, command: options.command ?? 'generate', project },
    'emit',
  );
}

/** One plan and write of a run, against the project as it is now. */
async function generateOnce(
  options: ResolvedOptions,
  mcpGenVersion: string,
  cwd: string,
  interrupted: Interruption | null,
  write: WriteOptions,
  warm: WarmCache | undefined,
): Promise<GenerateResult> {
  const cache = openRunCache(options, mcpGenVersion, cwd, {}, warm);
  // The project is read once here; the commit check below reads it again to see whether it changed.
  const existing = loadProject(options.outDir);
  const key = cache.key(existing);
  const recorded = cache.recorded(key);
  if (recorded !== null)
    return {
      diagnostics: recorded.diagnostics,
      report: recorded.report,
      interrupted,
      ok: !hasFailures(recorded.diagnostics, options.strict),
    };
  const beforeCommit = () => {
    write.beforeCommit?.();
    if (cache.keyNow(loadProject(options.outDir)) !== key)
      throw new InputsChanged('the manifest or a handler file changed; planning again');
  };
  const { runPipeline } = await pipeline();
  const result = await runPipeline(
    {
      manifest: options.manifest,
      cwd,
      cache,
      command: options.command ?? 'generate',
      project: {
        options,
        mcpGenVersion,
        existing,
        write: { ...write, beforeCommit, ...(warm === undefined ? {} : { known: warm.known(options.outDir) }) },
      },
    },
    'write',
  );
  cache.save(existing, result);
  const { diagnostics, written } = result;
  if (written === null) return { diagnostics, report: null, interrupted, ok: false };
  const stale = options.mode === 'check' && written.changes.length > 0;
  return { diagnostics, report: written, interrupted, ok: !stale && !hasFailures(diagnostics, options.strict) };
}
