import { checkOf } from '../check.js';
import { formatReport, type Paint } from '../diagnostics/index.js';
import { type CurationOptions, importOpenApi, importServer, type ImportResult, updateOpenApi } from '../import.js';
import { ImportError } from '../import/import-error.js';
import type { UpdateOutcome } from '../import/update.js';
import { LiveError, type LiveTarget } from '../live/index.js';
import { WriteError } from '../write/index.js';
import { OpenApiError } from '../load/openapi.js';
import { verifyAgainstManifest, type VerifyOutcome } from '../verify.js';
import type { CliIo } from './io.js';
import { updateSummary } from './import-update.js';
import { printCheck } from './review-commands.js';
import { addsToEnv, noServerEnv, type ServerEnvFlags, serverEnvironment } from './server-env.js';

/** Flags shared by both import commands. */
export interface DraftFlags {
  readonly out: string;
  readonly force: boolean;
}

/**
 * `url` alone, or a command and its arguments (after `--`), plus `--header 'Name: value'` for a URL; a command
 * starts with the caller's environment and what `--env-file` and `--env` add (server-env.ts).
 */
export function parseTarget(
  operands: readonly string[],
  headers: readonly string[],
  launch: ServerEnvFlags = noServerEnv,
  io: Pick<CliIo, 'env' | 'cwd'> = { env: process.env, cwd: process.cwd() },
): LiveTarget | string {
  const [first, ...rest] = operands;
  if (first === undefined) return 'give a server URL, or "--" and the command that starts the server';
  if (/^https?:\/\//.test(first) && rest.length === 0) {
    if (addsToEnv(launch)) return '--env and --env-file apply to a command, not to a server URL';
    const parsed: Record<string, string> = {};
    for (const header of headers) {
      const colon = header.indexOf(':');
      if (colon <= 0) return `--header must look like "Name: value", got "${header}"`;
      parsed[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    }
    return { kind: 'url', url: first, headers: parsed };
  }
  if (headers.length > 0) return '--header applies to a server URL, not to a command';
  const env = serverEnvironment(io.env, launch, io.cwd);
  if (typeof env === 'string') return env;
  return { kind: 'command', command: first, args: rest, env };
}

/** `mcp-gen import server <url> | -- <command> [args...]`. */
export async function runImportServer(
  operands: readonly string[],
  headers: readonly string[],
  flags: DraftFlags,
  io: CliIo,
  paint: Paint,
  launch: ServerEnvFlags = noServerEnv,
): Promise<number> {
  const target = parseTarget(operands, headers, launch, io);
  if (typeof target === 'string') return usage(io, target);
  return report(() => importServer(target, { ...flags, cwd: io.cwd }), flags, io, paint);
}

/**
 * `mcp-gen import openapi <spec> [--include F]... [--exclude F]... [--overlay FILE]... [--update]`; with
 * `--update`, the recorded curation unless some is given.
 */
export async function runImportOpenApi(
  spec: string,
  flags: DraftFlags & { readonly update: boolean },
  curation: CurationOptions,
  io: CliIo,
  paint: Paint,
): Promise<number> {
  if (!flags.update) return report(() => importOpenApi(spec, { ...flags, cwd: io.cwd }, curation), flags, io, paint);
  const given = curation.include.length + curation.exclude.length + curation.overlays.length > 0;
  return report(() => updateOpenApi(spec, { out: flags.out, cwd: io.cwd }, given ? curation : null), flags, io, paint);
}

/** `mcp-gen verify <url> | -- <command> [args...]`: exit 1 on any drift. */
export async function runVerify(
  operands: readonly string[],
  headers: readonly string[],
  manifest: string,
  io: CliIo,
  paint: Paint,
  launch: ServerEnvFlags = noServerEnv,
): Promise<number> {
  const target = parseTarget(operands, headers, launch, io);
  if (typeof target === 'string') return usage(io, target);
  let outcome: VerifyOutcome;
  try {
    outcome = await verifyAgainstManifest(manifest, target, io.cwd);
  } catch (error) {
    if (error instanceof LiveError) return usage(io, error.message);
    throw error;
  }
  if (outcome.result === null) {
    io.stderr(formatReport(outcome.diagnostics, paint));
    return 1;
  }
  const { result } = outcome;
  // Information is printed, never counted: it is what a manifest cannot declare, so it cannot drift from one.
  const info = result.info.map((line) => `  info: ${line}\n`).join('');
  const same = result.drift.length === 0 && result.expectedDigest !== result.liveDigest;
  const digests =
    `  toolset digest: manifest ${result.expectedDigest}, server ${result.liveDigest}` +
    `${same ? ' (the tools differ only in spelling, or in what the info lines name)' : ''}\n`;
  if (result.drift.length === 0) {
    io.stdout(`no drift: the server matches ${manifest}\n${info}${digests}`);
    return 0;
  }
  const lines = result.drift.map((d) => `  ${d.message}\n`).join('');
  io.stdout(
    `${paint.red('DRIFT')}: ${result.drift.length} difference${result.drift.length === 1 ? '' : 's'} ` +
      `between the server and ${manifest}\n${lines}${info}${digests}`,
  );
  return 1;
}

async function report(
  run: () => Promise<ImportResult & { readonly update?: UpdateOutcome }>,
  flags: DraftFlags,
  io: CliIo,
  paint: Paint,
): Promise<number> {
  let result: ImportResult & { readonly update?: UpdateOutcome };
  try {
    result = await run();
  } catch (error) {
    if (error instanceof LiveError || error instanceof WriteError) return usage(io, error.message);
    if (error instanceof ImportError || error instanceof OpenApiError) {
      io.stderr(error.format());
      return 1;
    }
    throw error;
  }
  for (const warning of result.draft.warnings ?? []) io.stderr(`mcp-gen: warning: ${warning}\n`);
  if (!result.written) return usage(io, `${flags.out} already exists; pass --force to replace it, or --out <file>`);
  const data = result.draft.data as Record<string, unknown>;
  const count = (key: string, noun: string) =>
    plural(Object.keys((data[key] as object | undefined) ?? {}).length, noun);
  const todos = plural(result.text.split('\n').filter((line) => /^\s*# TODO\b/.test(line)).length, 'TODO');
  const summary = result.update === undefined ? null : updateSummary(flags.out, result.update, paint);
  if (summary !== null) io.stdout(summary.stdout);
  else
    io.stdout(
      `wrote ${flags.out}: ${count('tools', 'tool')}, ${count('resources', 'resource')}, ` +
        `${count('prompts', 'prompt')}, ${todos} to review\n`,
    );
  const dropped = result.draft.dropped ?? 0;
  if (dropped > 0) io.stdout(`left out ${plural(dropped, 'operation')} the spec marks with x-mcp or x-speakeasy-mcp\n`);
  // Conflicts belong to the update's report, with their own count, not after the review's count of the manifest.
  if (summary !== null) io.stderr(summary.stderr);
  // After --update the draft's flags are about the spec's draft, not the manifest the user curated.
  if (summary === null && result.draft.flags.length > 0)
    io.stdout(`a reviewer must decide:\n${result.draft.flags.map((f) => `  - ${f}`).join('\n')}\n`);
  // The design review of the draft, as `mcp-gen check` prints it;
  // a failing gate is the review's verdict, not an import failure.
  if (result.compiled?.model === null) {
    io.stderr(formatReport(result.compiled.diagnostics, paint));
    return 1;
  }
  if (result.compiled !== null)
    printCheck(checkOf(result.compiled, shownFindings), flags.out, false, io, paint, shownFindings);
  // A conflict keeps the user's value, written; the exit code says a decision is still the user's to make.
  return summary !== null && summary.stderr !== '' ? 1 : 0;
}

/** Warnings and notes the review of a draft prints before it only counts the rest (errors are always printed). */
const shownFindings = 100;

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function usage(io: CliIo, message: string): number {
  io.stderr(`mcp-gen: error: ${message}\n`);
  return 1;
}
