/**
 * The commands that talk to a running server or read an API document: `import server`, `import openapi` and
 * `verify`, declared on the program `cli/index.ts` builds. Commander wiring only.
 */
import type { Command } from 'commander';
import { choosePaint } from '../diagnostics/index.js';
import { helpAfter } from './help-text.js';
import type { CliIo } from './io.js';

// Loaded when one of these commands runs: the official client and the import stages are not needed otherwise.
const importCommands = () => import('./import-commands.js');

/** The options of `import openapi`, as commander gives them. */
interface ImportOpenApiOptions {
  readonly out: string;
  readonly force: boolean;
  readonly include: string[];
  readonly exclude: string[];
  readonly overlay: string[];
  readonly update: boolean;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--env` and `--env-file` of the commands that start a server: added to the caller's environment. */
type Launch = { readonly env: string[]; readonly envFile?: string };
const envOption = [
  'add KEY=VALUE to the environment the command starts with (repeatable; it inherits yours)',
  collect,
  [] as string[],
] as const;
const envFileOption = 'add the variables of a .env file (as node --env-file reads it) to that environment';
const launchOf = (options: Launch) => ({
  env: options.env,
  ...(options.envFile === undefined ? {} : { envFile: options.envFile }),
});

/** Declares `import server`, `import openapi` and `verify` on `program`; each action reports its exit code. */
export function declareLiveCommands(program: Command, io: CliIo, exit: (code: number) => void): void {
  const importCommand = program
    .command('import')
    .addHelpText('after', helpAfter('import'))
    .description('draft a manifest from a running MCP server or an OpenAPI spec, then review it');
  importCommand
    .command('server')
    .addHelpText('after', helpAfter('import server'))
    .description('read every tool, resource and prompt of a running server into a manifest draft')
    .usage('[options] <url> | [options] -- <command> [args...]')
    .argument('<target...>', "the server's Streamable HTTP URL, or (after --) the command that starts it over stdio")
    .option('--header <header>', 'HTTP header for a URL, "Name: value" (repeatable)', collect, [])
    .option('--env <KEY=VALUE>', ...envOption)
    .option('--env-file <path>', envFileOption)
    .option('--out <file>', 'where to write the draft', 'mcp.yaml')
    .option('--force', 'replace an existing file', false)
    .action(async (target: string[], options: { header: string[]; out: string; force: boolean } & Launch) => {
      const { runImportServer } = await importCommands();
      exit(
        await runImportServer(
          target,
          options.header,
          { out: options.out, force: options.force },
          io,
          choosePaint(io.isTty, io.env),
          launchOf(options),
        ),
      );
    });
  importCommand
    .command('openapi')
    .addHelpText('after', helpAfter('import openapi'))
    .description('a curated manifest draft from an OpenAPI 3.x spec: one tool per operation')
    .argument('<spec>', 'the spec file (YAML or JSON); $refs must be local')
    .option('--out <file>', 'where to write the draft', 'mcp.yaml')
    .option('--force', 'replace an existing file', false)
    .option(
      '--include <filter>',
      'import only matching operations: tag:NAME, path:GLOB, op:GLOB, method:VERB',
      collect,
      [],
    )
    .option('--exclude <filter>', 'leave out matching operations (wins over --include)', collect, [])
    .option(
      '--overlay <file>',
      'an OpenAPI Overlay 1.0 file applied to the spec first (repeatable, in order)',
      collect,
      [],
    )
    .option('--update', 'merge what changed in the spec into the curated manifest --out, keeping every edit', false)
    .action(async (spec: string, options: ImportOpenApiOptions) => {
      const { runImportOpenApi } = await importCommands();
      exit(
        await runImportOpenApi(
          spec,
          { out: options.out, force: options.force, update: options.update },
          { include: options.include, exclude: options.exclude, overlays: options.overlay },
          io,
          choosePaint(io.isTty, io.env),
        ),
      );
    });

  program
    .command('verify')
    .addHelpText('after', helpAfter('verify'))
    .description(
      'compare a running server with its manifest: versions, ' +
        'capabilities, tools and the toolset digest; exit 1 on drift',
    )
    .usage('[options] <url> | [options] -- <command> [args...]')
    .argument('<target...>', "the server's Streamable HTTP URL, or (after --) the command that starts it over stdio")
    .option('--manifest <file>', 'the manifest the server was generated from', 'mcp.yaml')
    .option('--header <header>', 'HTTP header for a URL, "Name: value" (repeatable)', collect, [])
    .option('--env <KEY=VALUE>', ...envOption)
    .option('--env-file <path>', envFileOption)
    .action(async (target: string[], options: { manifest: string; header: string[] } & Launch) => {
      const { runVerify } = await importCommands();
      exit(
        await runVerify(target, options.header, options.manifest, io, choosePaint(io.isTty, io.env), launchOf(options)),
      );
    });
}
