import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/golden.js';
import { metaOf, startRawStdio, type RawStdio } from '../../support/servers.js';
import { compileExample } from './support.js';

// examples/notes over HTTP needs NOTES_TOKENS: the README says so before the command, and the
// command it gives for the tokens works as written.

let entry = '';
beforeAll(() => {
  entry = compileExample('notes', 'notes');
}, 120_000);

/**
 * Runs `script` in bash with the compiled server as $SERVER; resolves
 * with the exit code and stderr once `done` matches or it exits.
 */
function runShell(script: string, done: RegExp): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      env: { PATH: process.env.PATH, SERVER: entry },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out; stderr:\n${stderr}`));
    }, 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (done.test(stderr)) child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('examples/notes over HTTP', () => {
  const readme = readFileSync(path.join(repoRoot, 'examples', 'notes', 'README.md'), 'utf8');
  const run = readme.slice(readme.indexOf('## Run it'));

  it('the README names NOTES_TOKENS before the command that starts HTTP', () => {
    expect(run.indexOf('NOTES_TOKENS')).toBeGreaterThan(0);
    expect(run.indexOf('NOTES_TOKENS')).toBeLessThan(run.indexOf('npm run start:http'));
  });

  it('without NOTES_TOKENS it stops with one message naming it; with the README line it listens', async () => {
    const port = 20_000 + (process.pid % 20_000);
    const without = await runShell(`exec node "$SERVER" --transport http --port ${port}`, /NOTES_TOKENS/);
    expect(without.stderr).toMatch(
      /NOTES_TOKENS is not set; set it to token=principal:scope1,scope2;token2=principal2:scope/,
    );
    const line = /^export NOTES_TOKENS=.*$/m.exec(run)?.[0] ?? '';
    expect(line).not.toBe('');
    const withTokens = await runShell(
      `${line}\nexec node "$SERVER" --transport http --port ${port}`,
      /listening on http:\/\//,
    );
    expect(withTokens.stderr).toContain(`listening on http://127.0.0.1:${port}/mcp`);
  });
});

// The notes server lists its notes through its list handler, after the fixed style guide, and completes note ids
// from a handler while the tone keeps its fixed values.
describe('examples/notes lists and completes from handlers', () => {
  let id = 0;
  const ask = (server: RawStdio, method: string, params: Record<string, unknown> = {}) =>
    server.request({ jsonrpc: '2.0', id: ++id, method, params: { _meta: metaOf(), ...params } }) as Promise<any>;

  it('resources/list sends the style guide and every note on its one page', async () => {
    const server = startRawStdio(entry);
    try {
      // The fixed resources come first, and the list handler fills the rest of the page: a client that does not
      // follow cursors sees all three.
      const page = await ask(server, 'resources/list');
      expect(page.result.resources).toEqual([
        { uri: 'notes://style-guide', name: 'style_guide', mimeType: 'text/markdown' },
        { uri: 'notes://notes/welcome', name: 'Welcome to the team', mimeType: 'text/markdown' },
        { uri: 'notes://notes/release-checklist', name: 'Release checklist', mimeType: 'text/markdown' },
      ]);
      expect(page.result.nextCursor).toBeUndefined();
      const ids = await ask(server, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'notes://notes/{id}' },
        argument: { name: 'id', value: 'w' },
      });
      expect(ids.result.completion).toEqual({ values: ['welcome'], total: 1, hasMore: false });
      const noteIds = await ask(server, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'summarize_note' },
        argument: { name: 'note_id', value: '' },
      });
      expect(noteIds.result.completion).toEqual({ values: ['release-checklist', 'welcome'], total: 2, hasMore: false });
      const tones = await ask(server, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'summarize_note' },
        argument: { name: 'tone', value: 'fo' },
      });
      expect(tones.result.completion).toEqual({ values: ['formal'], total: 1, hasMore: false });
    } finally {
      await server.close();
    }
  });
});
