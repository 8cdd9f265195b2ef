import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/index.js';
import { repoRoot } from '../support/paths.js';

// `call`, `read`, `prompt` and `install` took --manifest, `dev` --console-port and --no-console, and `install`
// --global, but the README's command table named none of them: a user found them only in --help. Every option a
// command's --help lists is named in that command's rows of the table (`read` and `prompt` share `call`'s row).

const commands = [
  ['validate'],
  ['generate'],
  ['report'],
  ['check'],
  ['init'],
  ['import', 'server'],
  ['import', 'openapi'],
  ['verify'],
  ['dev'],
  ['call'],
  ['read'],
  ['prompt'],
  ['install'],
];

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const table = readme.slice(readme.indexOf('## Commands\n'), readme.indexOf('\nExit codes, for every command'));

/** The README table's row of a command and the option rows under it (until the next command's row). */
function rowsOf(command: readonly string[]): string {
  const name = command[0] === 'read' || command[0] === 'prompt' ? 'call' : command.join(' ');
  const start = table.indexOf(`| \`mcp-gen ${name} `);
  expect(start, `the README's command table has no row for mcp-gen ${name}`).toBeGreaterThanOrEqual(0);
  const next = table.indexOf('| `mcp-gen ', start + 1);
  return table.slice(start, next === -1 ? undefined : next);
}

async function helpOf(command: readonly string[]): Promise<string> {
  let out = '';
  const io = { stdout: (text: string) => (out += text), stderr: () => {}, isTty: false, env: {}, cwd: repoRoot };
  await runCli(['node', 'mcp-gen', ...command, '--help'], io);
  return out;
}

/** The long options in the Options part of a command's help, without --help itself. */
function optionsOf(help: string): string[] {
  const part = help.slice(help.indexOf('\nOptions:\n'), help.search(/\n\n(?:Examples|Exit codes|Commands):|$/));
  return [...part.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)]
    .map((match) => match[1] ?? '')
    .filter((option) => option !== '--help');
}

describe('every command-line option is documented', () => {
  it('reads the options of a help text', async () => {
    expect(optionsOf(await helpOf(['report']))).toEqual(['--out', '--format', '--force']);
  });

  it.each(commands.map((command) => [command.join(' '), command] as const))('mcp-gen %s', async (_name, command) => {
    const options = optionsOf(await helpOf(command));
    expect(options.length).toBeGreaterThan(0);
    const rows = rowsOf(command);
    expect(options.filter((option) => !new RegExp(`${option}(?![a-z-])`).test(rows))).toEqual([]);
  });
});

// verify, dev, call, read, prompt, install and import printed no exit codes in their --help (verify no examples
// either): every command's help ends with examples and the exit codes that command returns.
describe('every command has examples and exit codes in its help', () => {
  it.each([...commands, ['import']].map((command) => [command.join(' '), command] as const))(
    'mcp-gen %s',
    async (_name, command) => {
      const help = await helpOf(command);
      expect(help).toMatch(new RegExp(`\\nExamples:\\n {2}\\$ mcp-gen ${command[0]}[ \\n]`));
      const codes = help.slice(help.indexOf('\nExit codes:\n'));
      expect([...codes.matchAll(/^ {2}(\d+) /gm)].map((match) => match[1]).slice(0, 3)).toEqual(['0', '1', '2']);
      expect(codes).toContain('\n  2    a bug in mcp-gen\n');
    },
  );

  it('mcp-gen verify: its own exit codes', async () => {
    const help = await helpOf(['verify']);
    expect(help.slice(help.indexOf('\nExamples:\n'))).toBe(
      '\nExamples:\n' +
        '  $ mcp-gen verify -- node dist/server.mjs\n' +
        '  $ mcp-gen verify http://127.0.0.1:3000/mcp --manifest path/to/mcp.yaml\n' +
        '\nExit codes:\n' +
        '  0    no drift: the server matches the manifest\n' +
        '  1    drift (each difference is printed), an error in the manifest,\n' +
        '       a server that cannot be reached or started, a bad option\n' +
        '  2    a bug in mcp-gen\n\n',
    );
  });
});
