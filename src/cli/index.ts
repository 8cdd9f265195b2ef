/**
 * cli: commander wiring only. Flags become options, results become printed
 * text and an exit code: 0 success, 1 user error, 2 internal error.
 * No pipeline logic lives here.
 */
import { Command, CommanderError } from 'commander';
import { choosePaint } from '../diagnostics/index.js';
import { protocolVersion } from '../model/defaults.js';
import { helpAfter } from './help-text.js';
import type { CliIo } from './io.js';
import { declareLiveCommands } from './live-program.js';
import { addLoopCommands } from './loop-commands.js';
import { packageVersion } from './version.js';

export type { CliIo } from './io.js';

// Each command loads its own module when it runs: generate, report and init pull in
// json-schema-to-typescript and Handlebars, which `validate` and `--help` never need.
const commands = {
  validate: () => import('./validate-command.js'),
  generate: () => import('./generate-command.js'),
  init: () => import('./init-command.js'),
  review: () => import('./review-commands.js'),
};

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTty: process.stdout.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
};

/** Runs the CLI with `argv` (as in process.argv) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name('mcp-gen')
    .description(
      `Compile an MCP server manifest (spec ${protocolVersion}) into a typed TypeScript server, and review its design.`,
    )
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run "mcp-gen --help" for usage)')
    .addHelpText('after', helpAfter(null));

  program
    .command('validate')
    .addHelpText('after', helpAfter('validate'))
    .description('check a manifest and report every problem with file:line:col')
    .argument('[manifest]', 'path to the manifest', 'mcp.yaml')
    .option('--format <format>', 'output format: text or json', 'text')
    .option('--strict', 'treat warnings as errors', false)
    .action(async (manifest: string, options: { format: string; strict: boolean }) => {
      const { runValidate } = await commands.validate();
      exitCode = await runValidate(
        { manifest, format: options.format, strict: options.strict },
        io,
        choosePaint(io.isTty, io.env),
      );
    });

  program
    .command('generate')
    .addHelpText('after', helpAfter('generate'))
    .description('generate or update the typed server project next to the manifest; never overwrites handler files')
    .argument('[manifest]', 'path to the manifest', 'mcp.yaml')
    .option('--out <dir>', "project folder (default: the manifest's folder)")
    .option('--check', 'write nothing; exit 1 if any generated file is missing or out of date (for CI)', false)
    .option('--dry-run', "print what would be written, with each file's owner, and write nothing", false)
    .option('--strict', 'treat warnings as errors', false)
    .option('--watch', 'regenerate on every save of the manifest, with a one-line summary', false)
    .action(
      async (
        manifest: string,
        options: { out?: string; check: boolean; dryRun: boolean; strict: boolean; watch: boolean },
      ) => {
        const { runGenerate, runGenerateWatch } = await commands.generate();
        if (options.watch && (options.check || options.dryRun)) {
          // --check and --dry-run write nothing and end; watching would wait forever for nothing.
          io.stderr(
            'mcp-gen: error: --watch cannot be combined with ' +
              `${options.check ? '--check' : '--dry-run'}; run them separately\n`,
          );
          exitCode = 1;
          return;
        }
        if (options.watch) {
          exitCode = await runGenerateWatch(
            { manifest, command: 'generate --watch', ...(options.out === undefined ? {} : { out: options.out }) },
            io,
            choosePaint(io.isTty, io.env),
          );
          return;
        }
        exitCode = await runGenerate(
          {
            manifest,
            ...(options.out === undefined ? {} : { out: options.out }),
            check: options.check,
            dryRun: options.dryRun,
            strict: options.strict,
          },
          io,
          choosePaint(io.isTty, io.env),
        );
      },
    );

  program
    .command('init')
    .addHelpText('after', helpAfter('init'))
    .description('create a new server project: manifest, generated code, handler stubs, DESIGN.md and contract tests')
    .argument('[dir]', 'where to create it', '.')
    .option('--name <name>', 'server name (default: from the folder name)')
    .option('--example <example>', 'start from: blank, demo, notes, calendar, files or library')
    .option('--transport <transport>', 'stdio, http or both')
    .option(
      '--legacy <mode>',
      'serve (default): also answer 2025-11-25 hosts such as ' +
        'desktop and IDE assistants; reject: 2026-07-28 clients only',
    )
    .option('--yes', 'ask nothing; take the defaults', false)
    .option('--force', 'add the project to a non-empty folder (existing files are never overwritten)', false)
    .action(
      async (
        dir: string,
        options: { name?: string; example?: string; transport?: string; legacy?: string; yes: boolean; force: boolean },
      ) => {
        const { runInit } = await commands.init();
        exitCode = await runInit(
          { dir, ...options },
          io,
          choosePaint(io.isTty, io.env),
          io.isTty && process.stdin.isTTY === true,
        );
      },
    );

  program
    .command('check')
    .addHelpText('after', helpAfter('check'))
    .description('design review for CI: validate, lint and the server-designer gate; exit 1 on any FAIL')
    .argument('[manifest]', 'path to the manifest', 'mcp.yaml')
    .option('--baseline <file|git-ref>', 'also report breaking changes against an earlier manifest')
    .option('--format <format>', 'output format: text or json', 'text')
    .option('--strict', 'treat warnings as failures', false)
    .action(async (manifest: string, options: { baseline?: string; format: string; strict: boolean }) => {
      const { runCheck } = await commands.review();
      exitCode = await runCheck(
        {
          manifest,
          ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
          format: options.format,
          strict: options.strict,
        },
        io,
        choosePaint(io.isTty, io.env),
      );
    });

  program
    .command('report')
    .addHelpText('after', helpAfter('report'))
    .description('write the design report (DESIGN.md) for review before any handler is written')
    .argument('[manifest]', 'path to the manifest', 'mcp.yaml')
    .option('--out <file>', 'where to write it ("-" for standard output; default: next to the manifest)')
    .option('--format <format>', 'md or json', 'md')
    .option('--force', 'replace a file at --out that is not a design report mcp-gen wrote')
    .action(async (manifest: string, options: { out?: string; format: string; force?: boolean }) => {
      const { runReport } = await commands.review();
      exitCode = await runReport(
        {
          manifest,
          ...(options.out === undefined ? {} : { out: options.out }),
          format: options.format,
          force: options.force === true,
        },
        io,
        choosePaint(io.isTty, io.env),
      );
    });

  declareLiveCommands(program, io, (code) => {
    exitCode = code;
  });
  addLoopCommands(program, io, (code) => {
    exitCode = code;
  });

  try {
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    io.stderr(
      `mcp-gen: internal error: ${(error as Error).stack ?? String(error)}\n` +
        'This is a bug in mcp-gen; please report it with the manifest that triggers it.\n',
    );
    return 2;
  }
}
