import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decideMcpGenInstall, findMcpGenOrigin } from '../../src/load/index.js';
import { repoRoot, runIn } from '../support/golden.js';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-origin-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder holding only package.json, as the origin rule needs. */
function fakePackage(dir: string): URL {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "mcp-gen", "version": "1.2.3" }\n');
  return pathToFileURL(`${dir}/`);
}

function lock(project: string, resolved: Record<string, unknown>): void {
  writeFileSync(
    path.join(project, 'node_modules', '.package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { 'node_modules/mcp-gen': resolved } }),
  );
}

// Whether the running mcp-gen came from a registry decides the new project's devDependency.
describe('where mcp-gen came from', () => {
  it('a checkout is not a registry install', () => {
    expect(findMcpGenOrigin(fakePackage(path.join(root, 'checkout')))).toEqual({
      root: path.join(root, 'checkout'),
      version: '1.2.3',
      fromRegistry: false,
    });
  });

  it('a package inside node_modules is a registry install, unless npm recorded a local source', () => {
    const project = path.join(root, 'project');
    const url = fakePackage(path.join(project, 'node_modules', 'mcp-gen'));
    expect(findMcpGenOrigin(url).fromRegistry).toBe(true);
    lock(project, { version: '1.2.3', resolved: 'https://registry.npmjs.org/mcp-gen/-/mcp-gen-1.2.3.tgz' });
    expect(findMcpGenOrigin(url).fromRegistry).toBe(true);
    lock(project, { version: '1.2.3', resolved: 'file:mcp-gen-1.2.3.tgz' });
    expect(findMcpGenOrigin(url).fromRegistry).toBe(false);
    lock(project, { resolved: 'git+ssh://git@example.com/mcp-gen.git#abc' });
    expect(findMcpGenOrigin(url).fromRegistry).toBe(false);
  });

  it('a symlink in node_modules (file: folder install, npm link) resolves to the checkout', () => {
    const checkout = path.join(root, 'linked-checkout');
    fakePackage(checkout);
    const project = path.join(root, 'linking', 'node_modules');
    mkdirSync(project, { recursive: true });
    symlinkSync(checkout, path.join(project, 'mcp-gen'));
    expect(findMcpGenOrigin(pathToFileURL(`${path.join(project, 'mcp-gen')}/`))).toEqual({
      root: checkout,
      version: '1.2.3',
      fromRegistry: false,
    });
  });
});

// One rule decides how a new package.json asks for mcp-gen, for init and generate alike, so that a plain
// `npm install` works in either (test/e2e/install.test.ts installs both for real).
describe('how a new package.json asks for mcp-gen', () => {
  const checkout = { root: path.join(root, 'tools', 'mcp-gen'), version: '1.2.3', fromRegistry: false };

  it('from a registry: ^version, whatever the command', () => {
    const registry = { ...checkout, fromRegistry: true };
    expect(decideMcpGenInstall(path.join(root, 'p1'), 'init', registry)).toEqual({ spec: '^1.2.3', pack: null });
    expect(decideMcpGenInstall(path.join(root, 'p1'), 'generate', registry)).toEqual({ spec: '^1.2.3', pack: null });
  });

  it('from a checkout: init packs a tarball, generate links the checkout by a relative path and packs nothing', () => {
    const project = path.join(root, 'work', 'server');
    expect(decideMcpGenInstall(project, 'init', checkout)).toEqual({
      spec: 'file:./mcp-gen-1.2.3.tgz',
      pack: { file: 'mcp-gen-1.2.3.tgz', from: checkout.root },
    });
    expect(decideMcpGenInstall(project, 'generate', checkout)).toEqual({
      spec: 'file:../../tools/mcp-gen',
      pack: null,
    });
    // The checkout itself cannot depend on itself; a tarball install elsewhere may be replaced by npm.
    expect(decideMcpGenInstall(checkout.root, 'generate', checkout).spec).toBe('^1.2.3');
    const installed = { ...checkout, root: path.join(root, 'other', 'node_modules', 'mcp-gen') };
    expect(decideMcpGenInstall(project, 'generate', installed).spec).toBe('^1.2.3');
  });

  it('a tarball of this version already in the project is used, by both commands, without packing again', () => {
    const project = path.join(root, 'has-tarball');
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, 'mcp-gen-1.2.3.tgz'), 'packed before\n');
    for (const command of ['init', 'generate'] as const) {
      expect(decideMcpGenInstall(project, command, checkout)).toEqual({ spec: 'file:./mcp-gen-1.2.3.tgz', pack: null });
    }
  });

  it('generate alone writes the link into the package.json it creates, and leaves an existing one alone', async () => {
    const project = path.join(repoRoot, '.test-out', 'origin-generate');
    rmSync(project, { recursive: true, force: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(
      path.join(project, 'mcp.yaml'),
      'mcpGen: 1\nserver: { name: alone, version: 1.0.0 }\ntools:\n  ping:\n    title: Ping\n' +
        '    description: Answer with pong to show the server is alive.\n' +
        '    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
        '    input: { type: object, additionalProperties: false }\n',
    );
    expect((await runIn(project, ['generate'])).code).toBe(0);
    const spec = () => JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')).devDependencies['mcp-gen'];
    expect(spec()).toBe('file:../..');
    expect(existsSync(path.join(project, 'mcp-gen-0.1.0.tgz'))).toBe(false);
    const pkg = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
    pkg.devDependencies['mcp-gen'] = '^0.1.0';
    writeFileSync(path.join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    expect((await runIn(project, ['generate'])).code).toBe(0);
    expect(spec()).toBe('^0.1.0');
  });
});
