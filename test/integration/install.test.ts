import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// `mcp-gen install <host>` against a temporary HOME and --config-path files only: never the real home.
// Each host's entry is checked against the shape its documentation shows (src/live/hosts.ts cites each).

const work = path.join(repoRoot, '.test-out', 'install');
const project = path.join(work, 'project');
const home = path.join(work, 'home');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const entry = path.join(project, 'dist', 'server.mjs');

function install(args: readonly string[]) {
  const result = spawnSync(process.execPath, [cli, 'install', ...args], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: home },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const read = (file: string) => readFileSync(file, 'utf8');
const json = (data: unknown) => `${JSON.stringify(data, null, 2)}\n`;

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(project, 'dist'), { recursive: true });
  mkdirSync(home, { recursive: true });
  copyFileSync(path.join(repoRoot, 'examples', 'demo', 'mcp.yaml'), path.join(project, 'mcp.yaml'));
  appendFileSync(
    path.join(project, 'mcp.yaml'),
    'config:\n' +
      '  DEMO_TOKEN: { description: The upstream API token., secret: true }\n' +
      '  DEMO_REGION: { description: Where the upstream runs., type: string }\n',
  );
  writeFileSync(entry, '');
});

const env = { DEMO_REGION: 'eu' };
const stdioEntry = (token: string) => ({ command: 'node', args: [entry], env: { ...env, DEMO_TOKEN: token } });

describe('mcp-gen install', () => {
  it('claude-desktop: mcpServers in its config under HOME, a placeholder for the secret', () => {
    const file = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
    const first = install(['claude-desktop', '--env', 'DEMO_REGION=eu']);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(
      `Claude Desktop: wrote "demo-server" into ${file}\n` +
        '  set DEMO_TOKEN in that file by hand (it holds a placeholder), or run again with --env DEMO_TOKEN=...\n',
    );
    expect(read(file)).toBe(json({ mcpServers: { 'demo-server': stdioEntry('<secret value>') } }));
    const second = install(['claude-desktop', '--env', 'DEMO_REGION=eu']);
    expect(second.stdout).toBe(
      `Claude Desktop: ${file} already has "demo-server" as it would be written; nothing changed\n`,
    );
    expect(existsSync(`${file}.bak`)).toBe(false);
  });

  it('claude-code: .mcp.json with type stdio; the secret expands from the environment', () => {
    const file = path.join(work, 'claude-code.json');
    expect(install(['claude-code', '--env', 'DEMO_REGION=eu', '--config-path', file]).code).toBe(0);
    const expected = json({ mcpServers: { 'demo-server': { type: 'stdio', ...stdioEntry(`\${DEMO_TOKEN}`) } } });
    expect(read(file)).toBe(expected);
    expect(install(['claude-code', '--env', 'DEMO_REGION=eu', '--config-path', file]).stdout).toMatch(
      /nothing changed\n$/,
    );
    expect(read(file)).toBe(expected);
  });

  it('cursor: keeps the other servers, the keys and the indentation; backs up the file it changes', () => {
    const file = path.join(work, 'cursor.json');
    const before =
      '{\n    "mcpServers": {\n        "other": { "command": "npx", "args": ["x"] }\n    },\n    "z": 1\n}\n';
    writeFileSync(file, before);
    const first = install(['cursor', '--env', 'DEMO_REGION=eu', '--config-path', file]);
    expect(first.stdout).toBe(`Cursor: wrote "demo-server" into ${file} (the previous file is ${file}.bak)\n`);
    expect(read(`${file}.bak`)).toBe(before);
    const data = {
      mcpServers: { other: { command: 'npx', args: ['x'] }, 'demo-server': stdioEntry(`\${env:DEMO_TOKEN}`) },
      z: 1,
    };
    expect(read(file)).toBe(`${JSON.stringify(data, null, '    ')}\n`);
    install(['cursor', '--env', 'DEMO_REGION=eu', '--config-path', file]);
    expect(read(`${file}.bak`)).toBe(before);
  });

  it('vscode: top-level servers with type stdio, the secret as a password input', () => {
    const file = path.join(work, 'vscode.json');
    const first = install(['vscode', '--env', 'DEMO_REGION=eu', '--config-path', file]);
    expect(first.stdout).toBe(
      `VS Code: wrote "demo-server" into ${file}\n  VS Code asks for DEMO_TOKEN when it starts the server\n`,
    );
    expect(read(file)).toBe(
      json({
        inputs: [{ type: 'promptString', id: 'DEMO_TOKEN', description: 'The upstream API token.', password: true }],
        servers: { 'demo-server': { type: 'stdio', ...stdioEntry(`\${input:DEMO_TOKEN}`) } },
      }),
    );
  });

  it('json: the file --file names; a secret named with --env is written there and never printed', () => {
    const file = path.join(work, 'generic.json');
    const first = install(['json', '--file', file, '--env', 'DEMO_REGION=eu', '--env', 'DEMO_TOKEN=s3cret-value']);
    expect(first.stdout + first.stderr).not.toContain('s3cret-value');
    expect(read(file)).toBe(json({ mcpServers: { 'demo-server': stdioEntry('s3cret-value') } }));
  });

  it('--print shows the entry and writes nothing; secrets stay hidden', () => {
    const file = path.join(work, 'printed.json');
    const printed = install([
      'cursor',
      '--print',
      '--config-path',
      file,
      '--env',
      'DEMO_REGION=eu',
      '--env',
      'DEMO_TOKEN=x1',
    ]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(json({ mcpServers: { 'demo-server': stdioEntry('<from --env>') } }));
    expect(printed.stderr).toBe(`(not written; without --print this goes into ${file})\n`);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses without a required setting, an unknown variable or host, and a file that is not JSON', () => {
    expect(install(['cursor', '--print'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: DEMO_REGION is required; pass --env DEMO_REGION=VALUE\n',
    });
    expect(install(['cursor', '--print', '--env', 'NOPE=1']).stderr).toBe(
      'mcp-gen: error: --env NOPE: the server reads no such variable (it reads: DEMO_REGION, DEMO_TOKEN)\n',
    );
    expect(install(['zed']).stderr).toBe(
      'mcp-gen: error: unknown host "zed"; hosts: claude-desktop, claude-code, cursor, vscode, json\n',
    );
    const broken = path.join(work, 'broken.json');
    writeFileSync(broken, '{ "mcpServers": ');
    const refused = install(['cursor', '--env', 'DEMO_REGION=eu', '--config-path', broken]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^mcp-gen: error: .*broken\.json is not JSON \(.*\); fix it or pass --config-path, nothing was changed\n$/,
    );
    expect(read(broken)).toBe('{ "mcpServers": ');
  });

  // A host file the disk refuses ended as "internal error ... a bug in mcp-gen", exit 2; it is the user's to fix.
  it('refuses a folder at --config-path and a file under a file, with exit 1', () => {
    const folder = path.join(work, 'a-folder.json');
    mkdirSync(folder, { recursive: true });
    expect(install(['cursor', '--env', 'DEMO_REGION=eu', '--config-path', folder])).toEqual({
      code: 1,
      stdout: '',
      stderr: `mcp-gen: error: ${folder}: EISDIR: a folder stands where a file is needed; the file is unchanged\n`,
    });
    const under = path.join(work, 'broken.json', 'mcp.json');
    expect(install(['cursor', '--env', 'DEMO_REGION=eu', '--config-path', under])).toEqual({
      code: 1,
      stdout: '',
      stderr: `mcp-gen: error: ${under}: ENOTDIR: a file stands where a folder is needed; the file is unchanged\n`,
    });
  });
});
