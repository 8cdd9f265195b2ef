import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestLimits } from '../../src/model/limits.js';
import { largestManifest } from '../support/big-manifest.js';
import { repoRoot } from '../support/golden.js';

const bin = path.join(repoRoot, 'bin', 'mcp-gen.js');
const preload = path.join(repoRoot, 'test', 'support', 'max-rss.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'mcp-gen-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mib = 1024 * 1024;

/** Runs the CLI in `dir`; its exit code, output and peak resident set size in bytes. */
function run(args: string[]) {
  const rssFile = path.join(dir, 'max-rss');
  const result = spawnSync(process.execPath, ['--import', preload, bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, MCP_GEN_MAX_RSS_FILE: rssFile, NO_COLOR: '1' },
    timeout: 240_000,
  });
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    rss: Number(readFileSync(rssFile, 'utf8')),
  };
}

// docs/manifest.md#limits: the largest manifest accepted and one over the limit, with what each costs.
describe('manifest limits', () => {
  it('the largest manifest accepted (8 MiB, 2,000 tools, a schema 64 levels deep) is checked in under 400 MiB', () => {
    const text = largestManifest();
    expect(Buffer.byteLength(text)).toBe(manifestLimits.bytes);
    writeFileSync(path.join(dir, 'largest.yaml'), text);
    const result = run(['check', 'largest.yaml']);
    // 2,000 listed tools are far over the context budget: that is the only error a valid manifest of this size has.
    expect(result.stderr.match(/error \[[a-z-]+\]/g)).toEqual(['error [lint-list-too-large]']);
    // check exits 1 on that gate FAIL, after reading, validating and reviewing the whole manifest.
    expect(result.code).toBe(1);
    // The bound docs/manifest.md#limits states: room above what the check needs, far below what a manifest past
    // the limits would take.
    expect(result.rss).toBeLessThan(400 * mib);
  }, 300_000);

  it('a 24 MiB manifest is refused before it is parsed, with the limit named, in under 150 MiB', () => {
    const text = largestManifest().repeat(3);
    writeFileSync(path.join(dir, 'huge.yaml'), text);
    const result = run(['validate', 'huge.yaml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'huge.yaml:32090:1: error [manifest-too-large] manifest "huge.yaml" is 25165824 bytes, more than the ' +
        'limit of 8 MiB (8388608 bytes); it was not parsed and the limit is crossed here\n' +
        '  hint: split the server into smaller ones, or write repeated schemas once under $defs and $ref them; ' +
        'docs/manifest.md#limits lists every limit\n' +
        '1 error, 0 warnings\n',
    );
    // Measured: about 70 MiB, what validating a small manifest takes.
    expect(result.rss).toBeLessThan(150 * mib);
  });
});
