import {
  appendFileSync,
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../support/golden.js';

// A run over unchanged inputs answers from the run record; every change of an input or of a file on
// disk must take the full pipeline again. A record whose diagnostics were edited shows which way a run went.
const dir = path.join(repoRoot, '.test-out', 'up-to-date');
const cacheDir = path.join(repoRoot, '.test-out', 'up-to-date-cache');
const manifest = path.join(repoRoot, 'test', 'fixtures', 'valid', 'minimal', 'manifest.yaml');
const tag = {
  code: 'lint-mutating-verb',
  severity: 'warning',
  message: 'replayed from the run record',
  file: 'mcp.yaml',
  pointer: '',
  line: 1,
  col: 1,
};
let saved: string | undefined;

function recordFile(): string {
  const files = readdirSync(cacheDir).filter((f) => /^[0-9a-f]{32}\.json$/.test(f));
  expect(files).toHaveLength(1);
  return path.join(cacheDir, files[0] ?? '');
}

/** Adds a diagnostic to the record: a run that prints it answered from the record. */
function tagRecord(): void {
  const file = recordFile();
  const record = JSON.parse(readFileSync(file, 'utf8')) as { diagnostics: unknown[] };
  record.diagnostics.push(tag);
  writeFileSync(file, JSON.stringify(record));
}

beforeAll(() => {
  saved = process.env.MCP_GEN_CACHE_DIR;
  process.env.MCP_GEN_CACHE_DIR = cacheDir;
});

afterAll(() => {
  if (saved === undefined) delete process.env.MCP_GEN_CACHE_DIR;
  else process.env.MCP_GEN_CACHE_DIR = saved;
});

beforeEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(manifest, path.join(dir, 'mcp.yaml'));
  expect((await runIn(dir, ['generate'])).code).toBe(0);
  // The first run created handlers and scaffold files, so it records no run, only its stubs' checks (the manifest
  // is too small for the parse cache); the second settles.
  expect(readdirSync(cacheDir).map((f) => f.replace(/^[0-9a-f]{32}/, 'KEY'))).toEqual(['KEY.handlers.json']);
  expect((await runIn(dir, ['generate'])).code).toBe(0);
}, 120_000);

describe('generate over unchanged inputs', () => {
  it('reports exactly what the full run reports, from the record', async () => {
    const full = await runIn(dir, ['generate']);
    const checked = await runIn(dir, ['generate', '--check']);
    tagRecord();
    const fast = await runIn(dir, ['generate']);
    expect(fast.stderr).toContain('replayed from the run record');
    expect(fast.stdout).toBe(full.stdout);
    expect(fast.stdout).toMatch(/^mcp\.yaml: 0 created, 0 updated, 0 renamed, 0 removed, \d+ unchanged\n$/);
    const fastCheck = await runIn(dir, ['generate', '--check']);
    expect(fastCheck.stdout).toBe(checked.stdout);
    expect(fastCheck.code).toBe(0);
  }, 120_000);

  it('builds again when a generated file changed on disk', async () => {
    tagRecord();
    appendFileSync(path.join(dir, 'src', 'generated', 'server.gen.ts'), '// edited\n');
    const result = await runIn(dir, ['generate', '--check']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('replayed from the run record');
    expect(result.stderr).toContain('update    generated src/generated/server.gen.ts\n');
  }, 120_000);

  it('builds again when the manifest, a handler or a scaffold file changed', async () => {
    tagRecord();
    appendFileSync(path.join(dir, 'mcp.yaml'), '# a comment\n');
    expect((await runIn(dir, ['generate'])).stderr).not.toContain('replayed from the run record');

    tagRecord();
    writeFileSync(path.join(dir, 'src', 'handlers', 'tools', 'stray.ts'), 'export const stray = 1;\n');
    const orphan = await runIn(dir, ['generate']);
    expect(orphan.stderr).not.toContain('replayed from the run record');
    expect(orphan.stderr).toContain('[handler-orphaned]');

    rmSync(path.join(dir, 'src', 'handlers', 'tools', 'stray.ts'));
    await runIn(dir, ['generate']);
    tagRecord();
    rmSync(path.join(dir, 'README.md'));
    const scaffold = await runIn(dir, ['generate']);
    expect(scaffold.stderr).not.toContain('replayed from the run record');
    expect(scaffold.stdout).toContain('create    scaffold  README.md\n');
  }, 120_000);

  it('neither reads nor writes a cache folder that other users can write to', async () => {
    tagRecord();
    const tagged = readFileSync(recordFile(), 'utf8');
    chmodSync(cacheDir, 0o777);
    const shared = await runIn(dir, ['generate']);
    expect(shared.code).toBe(0);
    expect(shared.stderr).not.toContain('replayed from the run record');
    expect(readFileSync(recordFile(), 'utf8')).toBe(tagged);
    chmodSync(cacheDir, 0o700);
    expect((await runIn(dir, ['generate'])).stderr).toContain('replayed from the run record');
  }, 120_000);

  it('builds again when the record is unreadable or of another format', async () => {
    writeFileSync(recordFile(), '{"format":0}');
    expect((await runIn(dir, ['generate'])).code).toBe(0);
    writeFileSync(recordFile(), 'not json');
    const result = await runIn(dir, ['generate', '--check']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('mcp.yaml: generated files are up to date\n');
  }, 120_000);
});

describe('handler checks over unchanged handler files', () => {
  const checksFile = () => recordFile().replace(/\.json$/, '.handlers.json');
  const replayed = 'replayed from the handler checks';
  /** Replaces every cached outcome with a finding that shows where a run took it from. */
  const tagChecks = (identity?: string) => {
    const cache = JSON.parse(readFileSync(checksFile(), 'utf8')) as { identity: string; checks: [string, unknown[]][] };
    const checks = cache.checks.map(([key]) => [
      key,
      [{ code: 'handler-export-mismatch', message: replayed, at: { projectFile: 'src/x.ts', line: 1, col: 1 } }],
    ]);
    writeFileSync(checksFile(), JSON.stringify({ identity: identity ?? cache.identity, checks }));
  };

  it('keeps one outcome per handler file, each of a stub written by an earlier run, with no finding', () => {
    const cache = JSON.parse(readFileSync(checksFile(), 'utf8')) as { identity: string; checks: [string, unknown[]][] };
    expect(cache.identity).toMatch(/^[0-9a-f]{64}$/);
    expect(cache.checks).toEqual([[expect.stringMatching(/^[0-9a-f]{64}$/), []]]);
  });

  it('reuses the outcome for a file checked before, and checks a changed file again', async () => {
    tagChecks();
    appendFileSync(path.join(dir, 'mcp.yaml'), '# a comment\n');
    const reused = await runIn(dir, ['generate']);
    expect(reused.stderr).toContain(replayed);
    const [handler] = readdirSync(path.join(dir, 'src', 'handlers', 'tools'));
    appendFileSync(path.join(dir, 'src', 'handlers', 'tools', handler ?? ''), '// edited\n');
    const rechecked = await runIn(dir, ['generate']);
    expect(rechecked.code).toBe(0);
    expect(rechecked.stderr).not.toContain(replayed);
    expect(rechecked.stderr).not.toContain('handler-export-mismatch');
  }, 120_000);

  it('ignores outcomes recorded by another build of mcp-gen', async () => {
    tagChecks('0'.repeat(64));
    appendFileSync(path.join(dir, 'mcp.yaml'), '# a comment\n');
    const result = await runIn(dir, ['generate']);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain(replayed);
  }, 120_000);

  it('is answered by the record only for files that are themselves on disk, not a link nor past a file', async () => {
    const outside = path.join(repoRoot, '.test-out', 'up-to-date-outside');
    rmSync(outside, { recursive: true, force: true });
    mkdirSync(outside, { recursive: true });
    // Same bytes behind a link: only reading through the link could call the project up to date.
    const design = readFileSync(path.join(dir, 'DESIGN.md'), 'utf8');
    writeFileSync(path.join(outside, 'DESIGN.md'), design);
    rmSync(path.join(dir, 'DESIGN.md'));
    symlinkSync(path.join(outside, 'DESIGN.md'), path.join(dir, 'DESIGN.md'));
    tagRecord();
    const relinked = await runIn(dir, ['generate']);
    expect(relinked.stderr).toBe('');
    expect(relinked.stdout).toBe(
      'update    generated DESIGN.md\nmcp.yaml: 0 created, 1 updated, 0 renamed, 0 removed, 38 unchanged\n',
    );
    expect(lstatSync(path.join(dir, 'DESIGN.md')).isFile()).toBe(true);
    // A file where the test folder was: the recorded files below it are gone, which is no internal error.
    rmSync(path.join(dir, 'test'), { recursive: true });
    writeFileSync(path.join(dir, 'test'), 'a file\n');
    tagRecord();
    const blocked = await runIn(dir, ['generate', '--check']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toBe(
      'mcp-gen: error: could not write "test/contract-checks.gen.ts": "test" is a file, and mcp-gen needs a ' +
        'folder there; nothing was changed\n  hint: move the file "test" out of the way (or rename it), then ' +
        'run generate again\n',
    );
  }, 120_000);
});
