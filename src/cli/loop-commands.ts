/**
 * The inner-loop commands' commander wiring: `call`, `read`, `prompt`,
 * `install` and `dev`. Each loads its module only when it runs.
 */
import type { Command } from 'commander';
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

/** Adds the inner-loop commands to `program`; each sets the exit code through `exit`. */
export function addLoopCommands(program: Command, io: CliIo, exit: (code: number) => void): void {
  const calls = () => import('./call-commands.js');
  targetOptions(
    program
      .command('call')
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
      .description("read a resource of the project's built server and print it as JSON")
      .argument('<uri>', 'the resource URI'),
  ).action(async (uri: string, options: TargetOptions) => {
    const { runRead } = await calls();
    exit(await runRead(uri, flagsOf(options), io));
  });
  targetOptions(
    program
      .command('prompt')
      .description("get a prompt of the project's built server and print it as JSON")
      .argument('<name>', 'the prompt name')
      .option('--arg <key=value>', 'a prompt argument (repeatable)', collect, []),
  ).action(async (name: string, options: TargetOptions) => {
    const { runPrompt } = await calls();
    exit(await runPrompt(name, { arg: options.arg }, flagsOf(options), io));
  });
}
