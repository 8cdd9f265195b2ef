import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../support/golden.js';

// Issue 33 item 12: the hint of a manifest that cannot be read named `mcp-gen validate` under every command; it
// names the command that ran.

const dir = path.join(repoRoot, '.test-out', 'unreadable-hint');

describe('a missing manifest', () => {
  it.each([
    [['validate', 'missing.yaml'], 'validate'],
    [['check', 'missing.yaml'], 'check'],
    [['report', 'missing.yaml'], 'report'],
    [['generate', 'missing.yaml', '--check'], 'generate'],
    [['verify', '--manifest', 'missing.yaml', '--', 'node', 'server.mjs'], 'verify --manifest'],
  ])('%j: the hint names "mcp-gen %s"', async (args, command) => {
    mkdirSync(dir, { recursive: true });
    const result = await runIn(dir, args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'missing.yaml:1:1: error [manifest-unreadable] manifest "missing.yaml" does not exist or cannot be read\n' +
        `  hint: pass the path of a YAML manifest, e.g. "mcp-gen ${command} mcp.yaml"\n1 error, 0 warnings\n`,
    );
  });
});

// A first-time user who runs `mcp-gen validate` (or check, or install) outside a project was told to pass
// mcp.yaml, the very file that is missing; the hint now says where none was found and how to make one.
describe('a missing mcp.yaml, the default', () => {
  it.each([
    [['validate'], 'validate'],
    [['check'], 'check'],
    [['generate', '--check'], 'generate'],
    [['install', 'claude-code'], 'install <host> --manifest'],
  ])('%j: the hint names init and a path elsewhere', async (args, command) => {
    mkdirSync(dir, { recursive: true });
    const result = await runIn(dir, args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'mcp.yaml:1:1: error [manifest-unreadable] manifest "mcp.yaml" does not exist or cannot be read\n' +
        `  hint: there is no mcp.yaml in ${dir}: create a project with "mcp-gen init", or pass the path of your ` +
        `manifest, e.g. "mcp-gen ${command} path/to/mcp.yaml"\n1 error, 0 warnings\n`,
    );
  });
});

// An mcp.yaml that is there but cannot be read (here a link to itself) is not "no mcp.yaml": the plain hint.
describe('an mcp.yaml that exists and cannot be read', () => {
  it('keeps the plain hint', async () => {
    const looped = path.join(repoRoot, '.test-out', 'unreadable-hint-loop');
    rmSync(looped, { recursive: true, force: true });
    mkdirSync(looped, { recursive: true });
    symlinkSync('mcp.yaml', path.join(looped, 'mcp.yaml'));
    const result = await runIn(looped, ['validate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'mcp.yaml:1:1: error [manifest-unreadable] manifest "mcp.yaml" does not exist or cannot be read\n' +
        '  hint: pass the path of a YAML manifest, e.g. "mcp-gen validate mcp.yaml"\n1 error, 0 warnings\n',
    );
  });
});
