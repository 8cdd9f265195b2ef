import { formatReport, type Paint } from '../diagnostics/index.js';
import { initProject, serverNameFor, type InitOptions, type InitResult } from '../init.js';
import { initExamples, type InitExample } from '../load/index.js';
import { WriteError } from '../write/index.js';
import type { CliIo } from './io.js';
import { askQuestions, PromptCancelled, type Question } from './prompt.js';
import { legacyProtocolVersion, protocolVersion } from '../model/defaults.js';
import { packageVersion } from './version.js';

/** Flags of `mcp-gen init` as commander gives them. */
export interface InitFlags {
  readonly dir: string;
  readonly name?: string;
  readonly example?: string;
  readonly transport?: string;
  readonly legacy?: string;
  readonly yes: boolean;
  readonly force: boolean;
}

const transports = ['stdio', 'http', 'both'] as const;
const legacyModes = ['serve', 'reject'] as const;

/** Why a server name is refused, or null; `subject` names it as the flag or as the prompt's answer. */
function nameProblem(name: string, subject: string): string | null {
  if (/^[a-z][a-z0-9-]*$/.test(name) && name.length <= 64) return null;
  return (
    `${subject} must start with a lowercase letter and hold only lowercase letters, ` +
    `digits and dashes (at most 64), got "${name}"; try "${serverNameFor(name)}"`
  );
}

function choiceProblem(value: string, choices: readonly string[], subject: string): string | null {
  return choices.includes(value) ? null : `${subject} must be one of ${choices.join(', ')}, got "${value}"`;
}

/** The questions for every choice not given as a flag, each checked when answered. */
function questionsFor(flags: InitFlags, cwd: string): Question[] {
  const folder = serverNameFor(
    flags.dir === '.' ? (cwd.split(/[\\/]/).pop() ?? '') : (flags.dir.split(/[\\/]/).filter(Boolean).pop() ?? ''),
  );
  return [
    ...(flags.name === undefined
      ? [
          {
            key: 'name',
            prompt: `server name (${folder}): `,
            fallback: folder,
            check: (a: string) => nameProblem(a, 'the name'),
          },
        ]
      : []),
    ...(flags.example === undefined
      ? [
          {
            key: 'example',
            prompt: `start from (${initExamples.join(', ')}) [blank]: `,
            fallback: 'blank',
            check: (a: string) => choiceProblem(a, initExamples, 'the starting point'),
          },
        ]
      : []),
    ...(flags.transport === undefined
      ? [
          {
            key: 'transport',
            prompt: `transport (${transports.join(', ')}) [stdio]: `,
            fallback: 'stdio',
            check: (a: string) => choiceProblem(a, transports, 'the transport'),
          },
        ]
      : []),
    ...(flags.legacy === undefined
      ? [
          {
            key: 'legacy',
            prompt:
              `${legacyProtocolVersion} hosts (serve: also answer desktop and IDE ` +
              `assistants on the v1 SDK; reject: ${protocolVersion} clients only) [serve]: `,
            fallback: 'serve',
            check: (a: string) => choiceProblem(a, legacyModes, 'the answer'),
          },
        ]
      : []),
  ];
}

/** The first problem with the flags as given, in flag terms (for scripts). */
function flagProblem(flags: InitFlags): string | null {
  return (
    (flags.example === undefined ? null : choiceProblem(flags.example, initExamples, '--example')) ??
    (flags.transport === undefined ? null : choiceProblem(flags.transport, transports, '--transport')) ??
    (flags.legacy === undefined ? null : choiceProblem(flags.legacy, legacyModes, '--legacy')) ??
    (flags.name === undefined ? null : nameProblem(flags.name, '--name'))
  );
}

/**
 * `mcp-gen init`: asks on a terminal for every choice not given as a flag
 * (never with --yes), creates the project, prints the next commands. Ctrl-C or
 * Ctrl-D at a question stops with exit code 130 and writes nothing.
 */
export async function runInit(given: InitFlags, io: CliIo, paint: Paint, interactive: boolean): Promise<number> {
  const problem = flagProblem(given);
  if (problem !== null) {
    io.stderr(`mcp-gen: error: ${problem}\n`);
    return 1;
  }
  let flags = given;
  if (interactive && !given.yes) {
    try {
      flags = { ...given, ...(await askQuestions(questionsFor(given, io.cwd), process.stdin, process.stderr)) };
    } catch (error) {
      if (!(error instanceof PromptCancelled)) throw error;
      io.stderr('\nmcp-gen: init cancelled; nothing was written\n');
      return 130;
    }
  }
  const example = (flags.example ?? 'blank') as InitExample;
  const options: InitOptions = {
    dir: flags.dir,
    name: flags.name,
    example,
    transport: flags.transport as InitOptions['transport'],
    legacy: flags.legacy as InitOptions['legacy'],
    force: flags.force,
  };
  let result: InitResult;
  try {
    result = await initProject(options, io.cwd, packageVersion());
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    io.stderr(`mcp-gen: error: ${error.message}\n`);
    return 1;
  }
  if (!result.ok) {
    io.stderr(`mcp-gen: error: ${result.error}\n`);
    return 1;
  }
  if (result.diagnostics.length > 0) io.stderr(formatReport(result.diagnostics, paint));
  const created = result.actions.filter((a) => a.kind === 'create').length;
  const kept = result.actions.filter((a) => a.kind === 'keep').length;
  const packed =
    result.packed === null
      ? ''
      : `mcp-gen ${packageVersion()} comes from no registry (${result.packed.from}): ` +
        `packed into ${result.packed.file}, which package.json installs\n`;
  io.stdout(
    `created ${created} files${kept > 0 ? `, kept ${kept} existing` : ''} from ` +
      `"${example}"\n${packed}\nnext:\n${result.next.map((c) => `  ${c}`).join('\n')}\n`,
  );
  return result.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
