/**
 * The inner-loop commands' commander wiring: `call`, `read`, `prompt`,
 * `install` and `dev`. Each loads its module only when it runs.
 */
import type { Command } from 'commander';
import { helpAfter } from './help-text.js';
import type { CliIo } from './io.js';

/** Commander's collector of a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The options of call, read and prompt that say where the server is, as commander gives them. */
interface TargetOptions {
  readonly manifest: string;
  readonly url?: string;
  readonly header: string[];
  readonly yes: boolean;
  readonly arg: string[];
  readonly json?: string;
}

const yesHelp =
  'without a terminal, accept what the server asks (approvals): for scripted tests against test backends only';

function targetOptions(command: Command): Command {
  return command
    .option('--manifest <file>', "the project's manifest; the server run is dist/server.mjs next to it", 'mcp.yaml')
    .option('--url <url>', 'call a running server over Streamable HTTP instead (http://127.0.0.1:<port>/mcp)')
    .option('--header <header>', 'HTTP header for --url, "Name: value" (repeatable)', collect, [])
    .option('--yes', yesHelp, false);
}

function flagsOf(options: TargetOptions) {
  return {
    manifest: options.manifest,
    header: options.header,
    yes: options.yes,
    ...(options.url === undefined ? {} : { url: options.url }),
  };
}

/** The options of `install`, as commander gives them. */
interface InstallOptions {
  readonly manifest: string;
  readonly env: string[];
  readonly print: boolean;
  readonly configPath?: string;
  readonly file?: string;
  readonly global: boolean;
}

/** Adds the inner-loop commands to `program`; each sets the exit code through `exit`. */
export function addLoopCommands(program: Command, io: CliIo, exit: (code: number) => void): void {
  const calls = () => import('./call-commands.js');
  targetOptions(
    program
      .command('call')
      .addHelpText('after', helpAfter('call'))
      .description("call a tool of the project's built server and print the result as JSON")
      .argument('<tool>', 'the tool name')
      .option('--arg <key=value>', 'an argument, read as the input schema types it (repeatable)', collect, [])
      .option('--json <object>', 'the arguments as one JSON object (--arg values go on top)'),
  ).action(async (tool: string, options: TargetOptions) => {
    const { runCall } = await calls();
    const json = options.json === undefined ? {} : { json: options.json };
    exit(await runCall(tool, { arg: options.arg, ...json }, flagsOf(options), io));
  });
  targetOptions(
    program
      .command('read')
      .addHelpText('after', helpAfter('read'))
      .description("read a resource of the project's built server and print it as JSON")
      .argument('<uri>', 'the resource URI'),
  ).action(async (uri: string, options: TargetOptions) => {
    const { runRead } = await calls();
    exit(await runRead(uri, flagsOf(options), io));
  });
  targetOptions(
    program
      .command('prompt')
      .addHelpText('after', helpAfter('prompt'))
      .description("get a prompt of the project's built server and print it as JSON")
      .argument('<name>', 'the prompt name')
      .option('--arg <key=value>', 'a prompt argument (repeatable)', collect, []),
  ).action(async (name: string, options: TargetOptions) => {
    const { runPrompt } = await calls();
    exit(await runPrompt(name, { arg: options.arg }, flagsOf(options), io));
  });
  program
    .command('install')
    .addHelpText('after', helpAfter('install'))
    .description("write the project's server into a host's configuration (a second run changes nothing)")
    .argument('<host>', 'claude-desktop, claude-code, cursor, vscode, or json (an mcpServers file named by --file)')
    .option('--manifest <file>', "the project's manifest; the host runs dist/server.mjs next to it", 'mcp.yaml')
    .option('--env <KEY=VALUE>', "a value of one of the server's variables, secrets included (repeatable)", collect, [])
    .option('--print', 'print the entry and write nothing', false)
    .option('--config-path <file>', "write this file instead of the host's own")
    .option('--file <file>', 'for json: the mcpServers JSON file to write')
    .option('--global', "cursor: the user's ~/.cursor/mcp.json instead of the project's", false)
    .action(async (host: string, options: InstallOptions) => {
      const { runInstall } = await import('./install-command.js');
      const { choosePaint } = await import('../diagnostics/index.js');
      const flags = {
        manifest: options.manifest,
        env: options.env,
        print: options.print,
        global: options.global,
        ...(options.configPath === undefined ? {} : { configPath: options.configPath }),
        ...(options.file === undefined ? {} : { file: options.file }),
      };
      const interactive = io.isTty && process.stdin.isTTY === true;
      exit(await runInstall(host, flags, io, choosePaint(io.isTty, io.env), interactive));
    });
  program
    .command('dev')
    .addHelpText('after', helpAfter('dev'))
    .description(
      'regenerate on manifest saves, typecheck and rebuild on every save, and serve the server over HTTP on loopback',
    )
    .argument('[manifest]', 'path to the manifest', 'mcp.yaml')
    .option('--port <port>', 'the loopback port the server listens on', '3000')
    .option('--console-port <port>', 'the loopback port of the console in the browser (default 3100, or a free one)')
    .option('--no-console', 'serve no console')
    .action(async (manifest: string, options: { port: string; consolePort?: string; console: boolean }) => {
      const { runDev } = await import('./dev-command.js');
      const { choosePaint } = await import('../diagnostics/index.js');
      const flags = { port: options.port, console: options.console ? (options.consolePort ?? null) : (false as const) };
      exit(await runDev(manifest, flags, io, choosePaint(io.isTty, io.env)));
    });
}
