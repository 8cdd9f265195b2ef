import { resolveOptions, type GenerateFlags } from '../config/index.js';
import { formatReport, type Paint } from '../diagnostics/index.js';
import { generateProject, primeWarmCache, type GenerateResult } from '../generate.js';
import { openWarmCache } from '../cache/index.js';
import { watchManifest } from '../load/watch.js';
import { pendingFolder, type Interruption, type WriteAction } from '../write/index.js';
import { WriteError } from '../write/errors.js';
import type { CliIo } from './io.js';
import { packageVersion } from './version.js';

const labels: Record<WriteAction['kind'], string> = {
  create: 'create',
  update: 'update',
  unchanged: 'unchanged',
  keep: 'keep',
  move: 'rename',
  remove: 'remove',
};

function describe(action: WriteAction): string {
  const what = action.kind === 'move' ? `${action.from} -> ${action.path}` : action.path;
  return `${labels[action.kind].padEnd(9)} ${String(action.ownership).padEnd(9)} ${what}`;
}

/** What an interrupted run left, as --check and --dry-run report it. */
function describeLeft(found: Interruption): string {
  const parts = [
    found.run === 'committed'
      ? `an interrupted run left ${found.changes} change(s) half-applied (journal in ${pendingFolder}/)`
      : '',
    found.run === 'rolling-back' ? `an interrupted run was undoing a failed write (journal in ${pendingFolder}/)` : '',
    found.run === 'staged' ? `an interrupted run left temporary files in ${pendingFolder}/` : '',
    found.strays.length > 0
      ? `an interrupted run left ${found.strays.length} temporary file(s), e.g. ${found.strays[0]}`
      : '',
  ];
  return parts.filter((p) => p !== '').join('; ');
}

/** What a writing run repaired before it started. */
function describeRepair(found: Interruption): string {
  const parts = [
    found.run === 'committed' ? `finished the ${found.changes} change(s) of an interrupted run` : '',
    found.run === 'rolling-back' ? 'undid the changes of an interrupted run' : '',
    found.run === 'staged' ? 'removed the temporary files of an interrupted run (it had changed nothing)' : '',
    found.strays.length > 0 ? `removed ${found.strays.length} temporary file(s) an interrupted run had left` : '',
  ];
  return parts.filter((p) => p !== '').join('; ');
}

/** `mcp-gen generate`: prints diagnostics, then what changed (or would change); returns the exit code. */
export async function runGenerate(flags: GenerateFlags, io: CliIo, paint: Paint): Promise<number> {
  const options = resolveOptions(flags, io.cwd);
  let result: GenerateResult;
  try {
    result = await generateProject(options, packageVersion(), io.cwd);
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    io.stderr(`mcp-gen: error: ${error.message}\n`);
    return 1;
  }
  if (result.diagnostics.length > 0) io.stderr(formatReport(result.diagnostics, paint));
  const found = result.interrupted;
  if (found !== null && options.mode === 'write') io.stderr(`mcp-gen: note: ${describeRepair(found)}\n`);
  if (found !== null && options.mode === 'dry-run')
    io.stderr(`mcp-gen: note: ${describeLeft(found)}; generate repairs this first\n`);
  if (found !== null && options.mode === 'check')
    io.stderr(`${options.manifest}: ${describeLeft(found)}; run "${options.regenerateCommand}" to repair it\n`);
  const report = result.report;
  if (report === null) return 1;
  if (options.mode === 'dry-run') {
    io.stdout(`${report.actions.map(describe).join('\n')}\n(dry run: nothing was written)\n`);
    return result.ok ? 0 : 1;
  }
  // A handler whose entry is gone is never deleted, so it outlives every run: name it in the summary,
  // and let --check fail on it, since the project no longer matches its manifest.
  const orphans = result.diagnostics.filter((d) => d.code === 'handler-orphaned').length;
  if (options.mode === 'check') {
    if (report.changes.length === 0 && orphans === 0) {
      io.stdout(`${options.manifest}: generated files are up to date\n`);
    }
    if (report.changes.length > 0) {
      io.stderr(
        `${report.changes.map(describe).join('\n')}\n${options.manifest}: ` +
          `${report.changes.length} file(s) out of date; run "${options.regenerateCommand}"\n`,
      );
    }
    if (orphans > 0)
      io.stderr(
        `${options.manifest}: ${orphans} orphaned handler file(s); delete ` +
          'them or add renamedFrom to the entries that replace them\n',
      );
    return result.ok && orphans === 0 ? 0 : 1;
  }
  for (const change of report.changes) io.stdout(`${describe(change)}\n`);
  const count = (kind: WriteAction['kind']) => report.actions.filter((a) => a.kind === kind).length;
  io.stdout(
    `${options.manifest}: ${count('create')} created, ${count('update')} updated, ` +
      `${count('move')} renamed, ${count('remove')} removed, ${count('unchanged') + count('keep')} ` +
      `unchanged${orphans > 0 ? `; ${orphans} orphaned handler file(s) kept` : ''}\n`,
  );
  return result.ok ? 0 : 1;
}

/**
 * `mcp-gen generate --watch`: regenerates on every save of the manifest and
 * prints one line per run. Runs until interrupted (Ctrl-C).
 */
export async function runGenerateWatch(
  flags: GenerateFlags,
  io: CliIo,
  paint: Paint,
  afterRun?: (written: boolean) => Promise<void>,
): Promise<number> {
  const options = resolveOptions(flags, io.cwd);
  // Warnings the previous run printed are not printed again: a save that fixes nothing in them should not
  // repeat the whole block. Errors always are, since nothing was written.
  let shownWarnings = new Set<string>();
  // A save that edited one tool redoes about that tool's work: the runs share what they found (cache/warm.ts).
  const warm = openWarmCache();
  const once = async () => {
    let summary: string;
    let written = false;
    let news: readonly WriteAction[] = [];
    try {
      const result = await generateProject(options, packageVersion(), io.cwd, {}, warm);
      const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
      const changed = result.report?.changes.length ?? 0;
      news = result.report?.changes.filter((change) => change.kind !== 'update') ?? [];
      const keyOf = (d: (typeof warnings)[number]) => formatReport([d]);
      const fresh = result.diagnostics.filter((d) => d.severity !== 'warning' || !shownWarnings.has(keyOf(d)));
      // New warnings too: a count alone says nothing.
      if (fresh.length > 0) io.stderr(formatReport(fresh, paint));
      shownWarnings = new Set(warnings.map(keyOf));
      const repeated = warnings.length - fresh.filter((d) => d.severity === 'warning').length;
      const seen = repeated > 0 ? ` (${repeated} shown before)` : '';
      written = errors === 0;
      summary =
        errors > 0
          ? `${errors} error(s), nothing written`
          : `${changed} file(s) changed, ${warnings.length} warning(s)${seen}`;
    } catch (error) {
      summary = error instanceof WriteError ? error.message : `internal error: ${(error as Error).message}`;
    }
    const time = new Date().toTimeString().slice(0, 8);
    io.stdout(`${time} ${options.manifest}: ${summary}\n`);
    // Updates of generated files are the expected outcome of a save; a new stub to fill in, a rename or a
    // removal is news the user acts on.
    for (const change of news) io.stdout(`  ${describe(change)}\n`);
    await afterRun?.(written);
  };
  await once();
  io.stdout(`watching ${options.manifest}; press Ctrl-C to stop\n`);
  // One run at a time: a save during a run starts one more run after it, never a second one beside it.
  let running: Promise<void> | null = null;
  let again = false;
  const loop = (first: () => Promise<void>) => {
    running = (async () => {
      await first();
      while (again) {
        again = false;
        await once();
      }
      running = null;
    })();
  };
  const onSave = () => {
    if (running !== null) again = true;
    else loop(once);
  };
  // A first run the run record answered computed nothing: the warm cache is filled now, before the first save,
  // which then costs one tool's work. A failure only leaves that save slower.
  if (!warm.primed()) loop(() => primeWarmCache(options, packageVersion(), io.cwd, warm).catch(() => undefined));
  const watcher = watchManifest(
    options.manifest.startsWith('/') ? options.manifest : `${io.cwd}/${options.manifest}`,
    onSave,
  );
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  watcher.close();
  await running;
  warm.flush();
  return 0;
}
