import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/index.js';
import { repoRoot, runIn } from '../support/golden.js';

const bin = path.join(repoRoot, 'bin', 'mcp-gen.js');

/** Runs the real executable (compiled by `npm test`'s build step) as a user would. */
function mcpGen(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI in-process in the repository, with captured output. */
const runInProcess = (args: string[], overrides: Partial<CliIo> = {}) => runIn(repoRoot, args, overrides);

describe('mcp-gen validate', () => {
  it('accepts the reference manifest with exit 0', () => {
    const result = mcpGen(['validate', 'examples/notes/mcp.yaml']);
    expect(result).toEqual({ code: 0, stdout: 'examples/notes/mcp.yaml: valid\n', stderr: '' });
  });

  it('reports every problem with file:line:col, no stack trace, exit 1', () => {
    const result = mcpGen(['validate', 'test/fixtures/invalid/ten-mistakes/manifest.yaml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'test/fixtures/invalid/ten-mistakes/manifest.yaml:3:9: error [server-name-format] ' +
        'server.name: string "Notes" does not match ^[a-z][a-z0-9-]*$',
    );
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe('11 errors, 0 warnings');
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
  });

  it('defaults to ./mcp.yaml and says so when it is missing', () => {
    const result = mcpGen(['validate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'mcp.yaml:1:1: error [manifest-unreadable] manifest "mcp.yaml" does not exist or cannot be read\n' +
        `  hint: there is no mcp.yaml in ${repoRoot}: create a project with "mcp-gen init", or pass the path of ` +
        'your manifest, e.g. "mcp-gen validate path/to/mcp.yaml"\n1 error, 0 warnings\n',
    );
  });

  it('passes warnings, and fails them with --strict', () => {
    const manifest = 'test/fixtures/invalid/auth-without-http/manifest.yaml';
    const lenient = mcpGen(['validate', manifest]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toBe(`${manifest}: valid (1 warning)\n`);
    expect(mcpGen(['validate', manifest, '--strict']).code).toBe(1);
  });

  it('prints JSON with --format json', () => {
    const result = mcpGen(['validate', 'test/fixtures/invalid/scope-unknown/manifest.yaml', '--format', 'json']);
    expect(result.code).toBe(1);
    const parsed = JSON.parse(result.stdout) as {
      ok: boolean;
      diagnostics: { code: string; line: number; col: number; pointer: string }[];
    };
    expect(parsed.ok).toBe(false);
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col, d.pointer])).toEqual([
      ['scope-unknown', 12, 14, '/tools/search/scopes/0'],
      ['scope-unknown', 12, 26, '/tools/search/scopes/1'],
    ]);
  });

  it('rejects an unknown --format as a usage error', async () => {
    const result = await runInProcess(['validate', 'examples/notes/mcp.yaml', '--format', 'xml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('mcp-gen: error: --format must be "text" or "json", got "xml"\n');
  });

  it('colours only on a TTY without NO_COLOR', async () => {
    const args = ['validate', 'test/fixtures/invalid/duration-conflict/manifest.yaml'];
    const tty = await runInProcess(args, { isTty: true });
    expect(tty.stderr).toContain('\u001b[31merror\u001b[39m');
    const noColor = await runInProcess(args, { isTty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stderr).not.toContain('\u001b[');
    const pipe = await runInProcess(args, { isTty: false });
    expect(pipe.stderr).not.toContain('\u001b[');
  });
});

describe('mcp-gen --help and --version', () => {
  it('prints the version from package.json', () => {
    const result = mcpGen(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('0.1.0\n');
  });

  it('prints help listing the commands', () => {
    const result = mcpGen(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('validate [options] [manifest]');
  });

  it('exits 1 on an unknown command', () => {
    const result = mcpGen(['frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });
});
