import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findMcpGenOrigin } from '../../src/load/index.js';

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
