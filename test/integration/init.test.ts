import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { initExamples } from '../../src/load/index.js';
import { listTree, repoRoot, runIn } from '../support/golden.js';

const work = path.join(repoRoot, '.test-out', 'init');

beforeEach(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
});

// Every init from this checkout packs mcp-gen into the new project (`npm pack`), a process: integration tier.
describe('mcp-gen init', () => {
  it('creates a blank project named after its folder and prints the next three commands', async () => {
    const result = await runIn(work, ['init', 'weather-desk', '--yes']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // mcp-gen runs from this checkout, on no registry: it is packed into the project, which installs it from there.
    expect(result.stdout.replace(/created \d+ files/, 'created N files')).toBe(
      'created N files from "blank"\nmcp-gen 0.1.0 comes from no registry ' +
        `(${realpathSync(repoRoot)}): packed into mcp-gen-0.1.0.tgz, which package.json ` +
        'installs\n\nnext:\n  cd weather-desk\n  npm install\n  npm test\n  npm start\n',
    );
    const dir = path.join(work, 'weather-desk');
    const manifest = readFileSync(path.join(dir, 'mcp.yaml'), 'utf8');
    expect(manifest.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=node_modules/mcp-gen/schema/manifest.schema.json',
    );
    expect(manifest).toContain('  name: weather-desk\n');
    expect(listTree(dir)).toEqual(
      expect.arrayContaining([
        'DESIGN.md',
        'mcp.yaml',
        'package.json',
        'src/handlers/tools/hello.ts',
        'src/main.ts',
        'test/contract.gen.test.ts',
      ]),
    );
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      devDependencies: Record<string, string>;
    };
    expect(pkg.name).toBe('weather-desk');
    expect(pkg.devDependencies['mcp-gen']).toBe('file:./mcp-gen-0.1.0.tgz');
    expect(statSync(path.join(dir, 'mcp-gen-0.1.0.tgz')).size).toBeGreaterThan(10_000);
    expect((await runIn(dir, ['check'])).code).toBe(0);
  });

  it('starts from an example with its implemented handlers, renamed and with the chosen transport', async () => {
    const result = await runIn(work, [
      'init',
      'notes',
      '--example',
      'notes',
      '--name',
      'team-notes',
      '--transport',
      'both',
      '--yes',
    ]);
    expect(result.code).toBe(0);
    const dir = path.join(work, 'notes');
    const manifest = readFileSync(path.join(dir, 'mcp.yaml'), 'utf8');
    expect(manifest).toContain(
      '  name: team-notes                      # ^[a-z][a-z0-9-]*$, becomes serverInfo.name\n',
    );
    expect(manifest).toContain(
      'transports:\n  stdio: {}\n  http: { host: 127.0.0.1, port: ' +
        '3333, path: /mcp, allowedOrigins: ["http://localhost:6274"] }\n',
    );
    expect(readFileSync(path.join(dir, 'src', 'handlers', 'tools', 'search_notes.ts'), 'utf8')).toBe(
      readFileSync(path.join(repoRoot, 'examples', 'notes', 'src', 'handlers', 'tools', 'search_notes.ts'), 'utf8'),
    );
  });

  it("lists an example's own packages (library: pg) in the new package.json, at the example's pins", async () => {
    const result = await runIn(work, ['init', 'library', '--example', 'library', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    const created = JSON.parse(readFileSync(path.join(work, 'library', 'package.json'), 'utf8'));
    const example = JSON.parse(readFileSync(path.join(repoRoot, 'examples', 'library', 'package.json'), 'utf8'));
    expect(created.dependencies).toEqual({ '@modelcontextprotocol/server': '2.4.0', pg: '8.23.1' });
    expect(created.dependencies).toEqual(example.dependencies);
    const { 'mcp-gen': _created, ...devDependencies } = created.devDependencies;
    const { 'mcp-gen': _example, ...exampleDevDependencies } = example.devDependencies;
    expect(devDependencies['@types/pg']).toBe('8.23.1');
    expect(devDependencies).toEqual(exampleDevDependencies);
    // A starting point without packages of its own gets exactly mcp-gen's.
    expect((await runIn(work, ['init', 'blank', '--yes'])).code).toBe(0);
    expect(
      Object.keys(JSON.parse(readFileSync(path.join(work, 'blank', 'package.json'), 'utf8')).dependencies),
    ).toEqual(['@modelcontextprotocol/server']);
  });

  // One case per starting point: each packs and generates twice, which on a busy 2-core box takes a minute.
  it.each(initExamples)(
    'serves 2025-11-25 hosts from the %s starting point unless --legacy reject is chosen',
    async (example) => {
      expect((await runIn(work, ['init', `serve-${example}`, '--example', example, '--yes'])).code).toBe(0);
      expect(readFileSync(path.join(work, `serve-${example}`, 'mcp.yaml'), 'utf8')).not.toContain('legacy: reject');
      expect(
        (await runIn(work, ['init', `reject-${example}`, '--example', example, '--legacy', 'reject', '--yes'])).code,
      ).toBe(0);
      const manifest = readFileSync(path.join(work, `reject-${example}`, 'mcp.yaml'), 'utf8');
      expect([example, manifest.match(/^ {2}legacy: \w+/gm)]).toEqual([example, ['  legacy: reject']]);
      expect(readFileSync(path.join(work, `reject-${example}`, 'DESIGN.md'), 'utf8')).toContain(
        '2025-11-25 clients are refused with -32022 (protocol.legacy: reject)',
      );
    },
    180_000,
  );

  it('refuses a non-empty folder without --force, and with --force never overwrites a file', async () => {
    const dir = path.join(work, 'busy');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'README.md'), 'mine\n');
    const refused = await runIn(work, ['init', 'busy', '--yes']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-gen: error: "busy" is not empty; use --force to add ' +
        'the project there (existing files are never overwritten)\n',
    });
    expect(listTree(dir)).toEqual(['README.md']);
    const forced = await runIn(work, ['init', 'busy', '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^created \d+ files, kept 1 existing from "blank"\n/);
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('mine\n');
  });

  it('quotes a folder with spaces in the printed cd, so the next steps work as printed', async () => {
    const result = await runIn(work, ['init', 'my desk', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nnext:\n {2}cd 'my desk'\n {2}npm install\n {2}npm test\n {2}npm start\n$/);
  });

  it("counts as kept only files that were there before: the example's handlers are created", async () => {
    const result = await runIn(work, ['init', 'notes-desk', '--yes', '--example', 'notes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^created \d+ files from "notes"\n/);
  });
});
