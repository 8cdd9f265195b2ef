import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEnvProject, inspectorLine } from '../../support/env-project.js';
import { repoRoot } from '../../support/golden.js';

// Issue 33 item 7: `verify -- <command>` and `import server -- <command>` start a server as a host does. The
// server here requires the config variable FOO: it starts with the caller's FOO, with --env or --env-file, and
// when it dies before answering its stderr is shown. The README's Inspector line starts it as printed.

let project = '';
const bin = path.join(repoRoot, 'bin', 'mcp-gen.js');
let digest = '';

/** `mcp-gen ...args` as a user's shell runs it in the project, with the caller's environment less FOO, plus `env`. */
function mcpGen(args: readonly string[], env: Readonly<Record<string, string>> = {}) {
  const { FOO: _dropped, ...caller } = process.env;
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...caller, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const noDrift = () => ({
  code: 0,
  stdout: `no drift: the server matches mcp.yaml\n  toolset digest: manifest ${digest}, server ${digest}\n`,
  stderr: '',
});

beforeAll(() => {
  ({ dir: project, digest } = buildEnvProject('verify-env'));
}, 300_000);

describe('verify -- <command> starts the server as a host does', () => {
  it('FOO=x mcp-gen verify -- node dist/server.mjs passes: the child inherits the caller environment', () => {
    expect(mcpGen(['verify', '--', 'node', 'dist/server.mjs'], { FOO: 'x' })).toEqual(noDrift());
  });

  it('without FOO, says the connection closed and shows what the server wrote on stderr', () => {
    expect(mcpGen(['verify', '--', 'node', 'dist/server.mjs'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-gen: error: cannot connect to node dist/server.mjs: Connection closed\n' +
        "  the server's stderr:\n" +
        '    env-demo: the environment is missing or has invalid configuration (1); see .env.example:\n' +
        '      FOO is required and not set\n',
    });
  });

  it('adds --env KEY=VALUE, before or after the other options', () => {
    expect(mcpGen(['verify', '--env', 'FOO=x', '--manifest', 'mcp.yaml', '--', 'node', 'dist/server.mjs'])).toEqual(
      noDrift(),
    );
    expect(mcpGen(['verify', '--manifest', 'mcp.yaml', '--env', 'FOO=x', '--', 'node', 'dist/server.mjs'])).toEqual(
      noDrift(),
    );
  });

  it('adds the variables of --env-file, as node --env-file reads them', () => {
    writeFileSync(path.join(project, 'verify.env'), "# for verify\nFOO='a value with spaces'\n");
    expect(mcpGen(['verify', '--env-file', 'verify.env', '--', 'node', 'dist/server.mjs'])).toEqual(noDrift());
  });

  it('refuses a malformed --env, an unreadable --env-file and --env with a URL', () => {
    const refused = (args: readonly string[], message: string) =>
      expect(mcpGen(args)).toEqual({ code: 1, stdout: '', stderr: `mcp-gen: error: ${message}\n` });
    refused(['verify', '--env', 'FOO', '--', 'node', 'dist/server.mjs'], '--env must look like KEY=VALUE, got "FOO"');
    // Node 20 itself reads an --env-file anywhere on its command line, script arguments included, and stops
    // before mcp-gen runs when the file is missing; later Node reads only its own options.
    const missing = mcpGen(['verify', '--env-file', 'missing.env', '--', 'node', 'dist/server.mjs']);
    expect(missing).toEqual(
      process.versions.node.startsWith('20.')
        ? { code: 9, stdout: '', stderr: `${process.execPath}: missing.env: not found\n` }
        : { code: 1, stdout: '', stderr: 'mcp-gen: error: --env-file missing.env does not exist or cannot be read\n' },
    );
    refused(
      ['verify', '--env', 'FOO=x', 'http://127.0.0.1:9/mcp'],
      '--env and --env-file apply to a command, not to a server URL',
    );
  });
});

describe('import server -- <command> starts the server as a host does', () => {
  it('drafts the server with --env', () => {
    const result = mcpGen([
      'import',
      'server',
      '--env',
      'FOO=x',
      '--out',
      'imported.yaml',
      '--',
      'node',
      'dist/server.mjs',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('wrote imported.yaml: 1 tool, 0 resources, 0 prompts, 4 TODOs to review');
  });
});

describe("the README's Inspector line", () => {
  it('names the server command first, and that command starts the server with .env', async () => {
    const line = inspectorLine(project);
    expect(line).toBe(
      'npx @modelcontextprotocol/inspector@2.12.0 --cli node --env-file=.env dist/server.mjs --method tools/list',
    );
    // What the Inspector starts: the words between --cli and its own first option.
    const words = line.split(' ');
    const command = words.slice(words.indexOf('--cli') + 1, words.indexOf('--method'));
    // .env as the README says to make it: .env.example with the required value filled in.
    const example = readFileSync(path.join(project, '.env.example'), 'utf8');
    writeFileSync(path.join(project, '.env'), example.replace(/^FOO=$/m, 'FOO=x'));
    // Started as the Inspector starts it: the SDK's default environment only, none of the caller's variables.
    const [program = '', ...args] = command;
    const client = new Client({ name: 'inspector-like', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: program, args, cwd: project, stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['ping']);
    } finally {
      await client.close();
    }
  });
});
