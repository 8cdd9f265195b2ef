import path from 'node:path';
import { checkManifest, type CheckResult } from '../check.js';
import type { CountedFinding } from '../locate.js';
import { resolveOptions } from '../config/index.js';
import {
  formatDiagnostic,
  formatReport,
  formatSummary,
  hasFailures,
  type Diagnostic,
  type Paint,
} from '../diagnostics/index.js';
import { heaviestFirst } from '../review/index.js';
import { compareText } from '../util/compare.js';
import { designJsonPath, designPath } from '../model/layout.js';
import { runPipeline } from '../pipeline.js';
import { holdsNoUserReport, isFolder } from '../load/index.js';
import { WriteError, writeProject, type WriteReport } from '../write/index.js';
import type { CliIo } from './io.js';
import { packageVersion } from './version.js';

/** `mcp-gen check`: validate + lint + gate (+ breaking changes); exit 1 on any FAIL or error. */
export async function runCheck(
  flags: { manifest: string; baseline?: string; format: string; strict: boolean },
  io: CliIo,
  paint: Paint,
): Promise<number> {
  if (flags.format !== 'text' && flags.format !== 'json') {
    io.stderr(`mcp-gen: error: --format must be "text" or "json", got "${flags.format}"\n`);
    return 1;
  }
  const result = await checkManifest(flags.manifest, flags.baseline, io.cwd);
  if (flags.format === 'text') return printCheck(result, flags.manifest, flags.strict, io, paint);
  const failed = hasFailures(result.diagnostics, flags.strict) || (result.review?.failed ?? true);
  const gate = result.review?.gate.map((g) => ({ id: g.id, title: g.title, status: g.status, reason: g.reason })) ?? [];
  const report = {
    ok: !failed,
    diagnostics: result.diagnostics,
    gate,
    toolsListCost: result.review?.cost ?? null,
    toolCosts: result.review?.context.tools ?? null,
    hostLimits: result.review?.context.breaks ?? null,
  };
  io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return failed ? 1 : 0;
}

/**
 * A check as `mcp-gen check` prints it in text: diagnostics on stderr, the gate on stdout; returns the exit code.
 * With `shown` (import's review of its draft), every error but at most that many warnings and notes are printed,
 * the rest counted by code: a large API's draft has thousands of warnings, which `check` shows anyway.
 */
export function printCheck(
  result: CheckResult,
  manifest: string,
  strict: boolean,
  io: CliIo,
  paint: Paint,
  shown = Number.POSITIVE_INFINITY,
): number {
  const failed = hasFailures(result.diagnostics, strict) || (result.review?.failed ?? true);
  const counted = result.counted ?? [];
  if (result.diagnostics.length + counted.length > 0)
    io.stderr(formatShown(result.diagnostics, counted, manifest, shown, paint));
  if (result.review !== null) {
    const counts = ['PASS', 'WARN', 'FAIL']
      .map((s) => `${result.review?.gate.filter((g) => g.status === s).length} ${s.toLowerCase()}`)
      .join(', ');
    const lines = result.review.gate.map((g) => {
      const status =
        g.status === 'FAIL' ? paint.red(g.status) : g.status === 'WARN' ? paint.yellow(g.status) : g.status;
      return (
        `  ${status.padEnd(g.status.length + (4 - g.status.length))}  ` +
        `${g.id.padEnd(3)} ${g.title}${g.status === 'PASS' ? '' : `: ${g.reason}`}`
      );
    });
    // Every documented host limit the default surface breaks; a target's (review.hosts) also FAILs R5 above.
    const breaks = result.review.context.breaks.map((b) => `  ${b.target ? 'target' : 'host'}  ${b.message}\n`);
    const { context } = result.review;
    const listed = new Set(context.listed);
    const heaviest = heaviestFirst(context.tools.filter((t) => listed.has(t.name))).slice(0, 5);
    const schemas =
      context.schemas.length === 0
        ? ''
        : `heaviest schemas: ${context.schemas.map((s) => `${s.tool} ${s.part} ${s.bytes} bytes`).join(', ')}\n`;
    const toolsets = context.toolsets.map(
      (t) =>
        `  toolset ${t.name}${t.default ? ' (default)' : ''}: ${t.count} tools, about ${t.tokens} tokens ` +
        `(${t.bytes} bytes)\n`,
    );
    io.stdout(
      `gate ${result.review.failed ? 'FAIL' : 'PASS'} for ${manifest} (${counts})\n${lines.join('\n')}\n` +
        `tools/list costs about ${result.review.cost.tokens} tokens` +
        (context.surface === null
          ? ''
          : ` (discovery: search: ${context.surface.map((t) => `${t.name} ${t.tokens}`).join(', ')}); the ` +
            `${context.listed.length} tools it searches by default cost about ${context.plain.tokens} listed`) +
        (heaviest.length === 0
          ? ''
          : `; heaviest: ${heaviest.map((t) => `${t.name} ${t.tokens} (${t.bytes} bytes)`).join(', ')}`) +
        `\n${schemas}${toolsets.join('')}${breaks.join('')}`,
    );
  }
  return failed ? 1 : 0;
}

/** The report of `diagnostics` with every error and the first `shown` others, the rest counted by code. */
function formatShown(
  diagnostics: readonly Diagnostic[],
  counted: readonly CountedFinding[],
  manifest: string,
  shown: number,
  paint: Paint,
): string {
  let others = 0;
  const kept = diagnostics.filter((d) => {
    if (d.severity === 'error') return true;
    others += 1;
    return others <= shown;
  });
  if (kept.length === diagnostics.length && counted.length === 0) return formatReport(diagnostics, paint);
  const printed = new Set(kept);
  const counts = new Map<string, number>();
  const hidden = [...diagnostics.filter((d) => !printed.has(d)), ...counted];
  for (const d of hidden) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  const byCode = [...counts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  const more =
    `... and ${hidden.length} more (${byCode.map(([code, n]) => `${n} ${code}`).join(', ')}); ` +
    `run "mcp-gen check ${manifest}" to see each one`;
  const summary = formatSummary([...diagnostics, ...counted]);
  return `${kept.map((d) => formatDiagnostic(d, paint)).join('\n')}\n${more}\n${summary}\n`;
}

/** `mcp-gen report`: writes DESIGN.md (or DESIGN.json), or prints it with `--out -`. */
export async function runReport(
  flags: { manifest: string; out?: string; format: string; force?: boolean },
  io: CliIo,
  paint: Paint,
): Promise<number> {
  if (flags.format !== 'md' && flags.format !== 'json') {
    io.stderr(`mcp-gen: error: --format must be "md" or "json", got "${flags.format}"\n`);
    return 1;
  }
  const options = resolveOptions({ manifest: flags.manifest }, io.cwd);
  const result = await runPipeline(
    {
      manifest: flags.manifest,
      cwd: io.cwd,
      command: 'report',
      project: { options, mcpGenVersion: packageVersion(), emit: 'report' },
    },
    'emit',
  );
  const reportPath =
    flags.format === 'json' ? designJsonPath(options.manifestFromOut) : designPath(options.manifestFromOut);
  const text = result.files.find((f) => f.path === reportPath)?.contents;
  if (text === undefined) {
    io.stderr(formatReport(result.diagnostics, paint));
    return 1;
  }
  if (flags.out === '-') {
    io.stdout(text);
    return 0;
  }
  const target = path.resolve(io.cwd, flags.out ?? path.join(options.outDir, ...reportPath.split('/')));
  if (!isFolder(path.dirname(target))) {
    // A typo in --out must not create folders anywhere on the disk.
    io.stderr(
      `mcp-gen: error: cannot write "${flags.out ?? target}": the folder "${path.dirname(target)}" does not exist\n`,
    );
    return 1;
  }
  // Only where the user points: a file there that is no report mcp-gen wrote is theirs, kept unless --force.
  if (flags.out !== undefined && flags.force !== true && !holdsNoUserReport(target)) {
    io.stderr(
      `mcp-gen: error: "${flags.out}" exists and is not a design report mcp-gen wrote; pass --force to replace it, ` +
        'or another --out\n',
    );
    return 1;
  }
  let report: WriteReport;
  try {
    report = writeProject(
      path.dirname(target),
      [{ path: path.basename(target), contents: text, ownership: 'generated' }],
      [],
      'write',
      '',
    );
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    io.stderr(`mcp-gen: error: ${error.message}\n`);
    return 1;
  }
  const shown = path.relative(io.cwd, target).split(path.sep).join('/');
  io.stdout(
    `${shown}: ${report.changes.length === 0 ? 'unchanged' : 'written'} ` +
      `(gate ${result.review?.failed === true ? 'FAIL' : 'PASS'})\n`,
  );
  return 0;
}
