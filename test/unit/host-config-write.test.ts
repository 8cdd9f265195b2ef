import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeHostConfig } from '../../src/write/host-config.js';

// `mcp-gen install` writes into a host's own folder (~/.cursor, a project's .vscode), outside the project: a write
// that fails must leave that folder as it was, with no temporary file of ours in it.

let dir = '';
afterEach(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe('writeHostConfig', () => {
  it('creates the folder and the file, with no backup of a file that did not exist', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-host-config-'));
    const file = path.join(dir, '.cursor', 'mcp.json');
    expect(writeHostConfig(file, '{"mcpServers":{}}\n')).toEqual({ backup: null });
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers":{}}\n');
    expect(readdirSync(path.dirname(file))).toEqual(['mcp.json']);
  });

  it('keeps the file it replaces as <file>.bak', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-host-config-'));
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, 'old\n');
    expect(writeHostConfig(file, 'new\n')).toEqual({ backup: `${file}.bak` });
    expect([readFileSync(file, 'utf8'), readFileSync(`${file}.bak`, 'utf8')]).toEqual(['new\n', 'old\n']);
    expect(readdirSync(dir).sort()).toEqual(['mcp.json', 'mcp.json.bak']);
  });

  it('leaves no temporary file behind when a step fails', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-host-config-'));
    // A folder where the file should be: its copy to .bak fails after the temporary file was written.
    const file = path.join(dir, 'mcp.json');
    mkdirSync(file);
    writeFileSync(path.join(file, 'keep.txt'), 'x');
    expect(() => writeHostConfig(file, 'new\n')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(readdirSync(dir)).toEqual(['mcp.json']);
    expect(readdirSync(file)).toEqual(['keep.txt']);
  });
});
