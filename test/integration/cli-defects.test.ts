import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../support/golden.js';

const work = path.join(repoRoot, '.test-out', 'cli-defects');
const bin = path.join(repoRoot, 'bin', 'mcp-gen.js');

beforeEach(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'valid', 'minimal', 'manifest.yaml'), path.join(work, 'mcp.yaml'));
});

// Regressions found by using the CLI as a newcomer would.
describe('CLI edge cases', () => {
  it('report --out into a folder that does not exist fails and creates nothing', async () => {
    const result = await runIn(work, ['report', '--out', 'missing/deeper/x.md']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-gen: error: cannot write "missing/deeper/x.md": the folder ' +
        `"${path.join(work, 'missing', 'deeper')}" does not exist\n`,
    });
    expect(existsSync(path.join(work, 'missing'))).toBe(false);
  });

  it('a binary file as the manifest gets one short diagnostic, never its bytes', async () => {
    const bytes = Buffer.alloc(8192);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919) % 256;
    bytes.write('\u007fELF', 0, 'latin1');
    writeFileSync(path.join(work, 'tool.bin'), bytes);
    const result = await runIn(work, ['validate', 'tool.bin']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'tool.bin:1:5: error [manifest-not-text] manifest "tool.bin" is not a UTF-8 text ' +
        'file (a byte that is not UTF-8 at byte 4)\n  hint: pass the path of a YAML ' +
        'manifest saved as UTF-8 text\n1 error, 0 warnings\n',
    });
  });

  it('rejects --watch with --check or --dry-run instead of watching forever', async () => {
    expect(await runIn(work, ['generate', '--watch', '--check'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: --watch cannot be combined with --check; run them separately\n',
    });
    expect(await runIn(work, ['generate', '--watch', '--dry-run'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: --watch cannot be combined with --dry-run; run them separately\n',
    });
  });

  it('--help shows examples and exit codes, for the program and for each command', () => {
    for (const args of [['--help'], ['init', '--help'], ['generate', '--help'], ['check', '--help']]) {
      const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/\nExamples:\n {2}\$ mcp-gen /);
      expect(result.stdout).toContain('\nExit codes:\n  0    success\n  1    a user error');
      expect(result.stdout).toContain('  130  init stopped by Ctrl-C or Ctrl-D at a question');
    }
  });

  it('a removed tool leaves an orphaned handler: the summary names it and --check fails', async () => {
    const manifest = path.join(work, 'mcp.yaml');
    writeFileSync(
      manifest,
      `${readFileSync(manifest, 'utf8').trimEnd()}\n  pong:\n    title: Pong\n` +
        '    description: Answer with ping, the other way round from ping.\n' +
        '    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
        '    input: { type: object, additionalProperties: false }\n',
    );
    expect((await runIn(work, ['generate'])).code).toBe(0);
    expect((await runIn(work, ['generate', '--check'])).code).toBe(0);
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/\n {2}pong:[\s\S]*$/, '\n'));
    const generated = await runIn(work, ['generate']);
    expect(generated.code).toBe(0);
    expect(generated.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^mcp\.yaml: 0 created, \d+ updated, 0 renamed, 0 removed, \d+ unchanged; 1 orphaned handler file\(s\) kept$/,
    );
    expect(existsSync(path.join(work, 'src', 'handlers', 'tools', 'pong.ts'))).toBe(true);
    const checked = await runIn(work, ['generate', '--check']);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe('');
    expect(checked.stderr).toContain('warning [handler-orphaned] handler file "src/handlers/tools/pong.ts"');
    expect(checked.stderr.trimEnd().split('\n').at(-1)).toBe(
      'mcp.yaml: 1 orphaned handler file(s); delete them or add renamedFrom to the entries that replace them',
    );
    rmSync(path.join(work, 'src', 'handlers', 'tools', 'pong.ts'));
    expect(await runIn(work, ['generate', '--check'])).toEqual({
      code: 0,
      stdout: 'mcp.yaml: generated files are up to date\n',
      stderr: '',
    });
  });
  it('a file where a project folder goes is a user error (exit 1, no stack): generate, init, import', async () => {
    writeFileSync(path.join(work, 'taken.txt'), 'mine');
    expect(await runIn(work, ['generate', 'mcp.yaml', '--out', 'taken.txt'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-gen: error: the project folder "taken.txt" is a file, not a folder; pass --out a folder (it is ' +
        'created when it does not exist)\n',
    });
    expect(await runIn(work, ['init', 'taken.txt', '--yes'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: "taken.txt" is a file, not a folder; name a new or empty folder\n',
    });
    writeFileSync(path.join(work, 'spec.yaml'), 'openapi: 3.0.0\ninfo: { title: t, version: "1" }\npaths: {}\n');
    mkdirSync(path.join(work, 'folder'));
    expect(await runIn(work, ['import', 'openapi', 'spec.yaml', '--out', 'folder', '--force'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mcp-gen: error: could not write "folder" (not a regular file); nothing was changed\n',
    });
    expect(readFileSync(path.join(work, 'taken.txt'), 'utf8')).toBe('mine');
  });
  it('report --out keeps a file that is no report mcp-gen wrote, unless --force', async () => {
    writeFileSync(path.join(work, 'notes.md'), 'my notes\n');
    expect(await runIn(work, ['report', '--out', 'notes.md'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-gen: error: "notes.md" exists and is not a design report mcp-gen wrote; pass --force to replace it, ' +
        'or another --out\n',
    });
    expect(readFileSync(path.join(work, 'notes.md'), 'utf8')).toBe('my notes\n');
    // A report it wrote is replaced as before, Markdown or JSON.
    for (const format of ['md', 'json'])
      for (let run = 0; run < 2; run += 1)
        expect((await runIn(work, ['report', '--out', `copy.${format}`, '--format', format])).code).toBe(0);
    expect((await runIn(work, ['report', '--out', 'notes.md', '--force'])).code).toBe(0);
    expect(readFileSync(path.join(work, 'notes.md'), 'utf8').startsWith('<!-- Generated by mcp-gen')).toBe(true);
  });
});
