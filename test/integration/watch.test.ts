import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/golden.js';

describe('mcp-gen generate --watch', () => {
  it('regenerates on save with a one-line summary, and reports errors without writing', async () => {
    const dir = path.join(repoRoot, '.test-out', 'watch');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const manifest = path.join(dir, 'mcp.yaml');
    cpSync(path.join(repoRoot, 'test', 'fixtures', 'valid', 'minimal', 'manifest.yaml'), manifest);
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', 'mcp.yaml', '--watch'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const waitFor = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const timer = setInterval(() => {
          if (pattern.test(out)) {
            clearInterval(timer);
            resolve();
          } else if (Date.now() - started > 20_000) {
            clearInterval(timer);
            reject(new Error(`timed out waiting for ${pattern}; got:\n${out}`));
          }
        }, 50);
      });
    try {
      await waitFor(/watching mcp\.yaml; press Ctrl-C to stop\n/);
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('title: Ping', 'title: Ping pong'));
      await waitFor(/\d\d:\d\d:\d\d mcp\.yaml: 3 file\(s\) changed, 0 warning\(s\)\n/);
      expect(readFileSync(path.join(dir, 'src', 'generated', 'registry.gen.json'), 'utf8')).toContain(
        '"title": "Ping pong"',
      );
      // A warning is shown with its text, not only counted: an orphaned handler after its tool is gone.
      writeFileSync(path.join(dir, 'src', 'handlers', 'tools', 'gone.ts'), 'export const gone = 1;\n');
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('server is alive.', 'server is up and alive.'));
      await waitFor(
        new RegExp(
          String.raw`warning \[handler-orphaned\] handler file "src/handlers/tools/gone\.ts"[^]*` +
            String.raw`mcp\.yaml: \d+ file\(s\) changed, 1 warning\(s\)\n`,
        ),
      );
      // The next save prints the same warning only as a count: the block is not repeated on every save.
      const before = out.length;
      writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('up and alive.', 'up, alive.'));
      await waitFor(/mcp\.yaml: \d+ file\(s\) changed, 1 warning\(s\) \(1 shown before\)\n/);
      expect(out.slice(before)).not.toContain('handler-orphaned');
      writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}oops: [\n`);
      await waitFor(/mcp\.yaml: 1 error\(s\), nothing written\n/);
      expect(readFileSync(path.join(dir, 'src', 'generated', 'registry.gen.json'), 'utf8')).toContain(
        '"title": "Ping pong"',
      );
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });
});
