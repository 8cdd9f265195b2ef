import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/golden.js';
import { metaOf, startRawStdio } from '../../support/servers.js';
import { accept, capabilities, expectOutsideUntouched, readError, toolError, useFilesScope } from './files-scope.js';
import { textOf } from './support.js';

// examples/files, writing: write_file never writes before approval nor, approved, outside the scope; special files
// planted in the scope are refused; and a server without a usable scope refuses every call (files-scope.ts).

const s = useFilesScope('write');

describe('examples/files: write_file never writes before approval', () => {
  it('on the wire: input_required and no file; declined: no file; accepted with the state: the file once', async () => {
    const target = path.join(s.scope, 'notes', 'wire.txt');
    const args = { path: 'notes/wire.txt', content: 'written on the wire\n' };
    const first = await s.raw.request({
      jsonrpc: '2.0',
      id: 'w1',
      method: 'tools/call',
      params: { name: 'write_file', arguments: args, _meta: metaOf('2026-07-28', capabilities) },
    });
    const asked = first.result as {
      resultType: string;
      requestState: string;
      inputRequests: { confirm: { method: string; params: { message: string } } };
    };
    expect(asked.resultType).toBe('input_required');
    expect(asked.inputRequests.confirm.method).toBe('elicitation/create');
    expect(asked.inputRequests.confirm.params.message).toBe(
      'Approve running "Write a file" (write_file) with arguments ' +
        '{"content":"written on the wire\\n","path":"notes/wire.txt"}?',
    );
    expect(existsSync(target)).toBe(false);

    const retry = (id: string, response: Record<string, unknown>) =>
      s.raw.request({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'write_file',
          arguments: args,
          inputResponses: { confirm: response },
          requestState: asked.requestState,
          _meta: metaOf('2026-07-28', capabilities),
        },
      });
    const declined = (await retry('w2', { action: 'decline' })).result as { isError: boolean; content: unknown };
    expect(declined).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The user declined "Write a file" (write_file); nothing was done.' }],
    });
    expect(existsSync(target)).toBe(false);

    const accepted = (await retry('w3', { action: 'accept', content: { confirm: true } })).result as {
      structuredContent: unknown;
    };
    expect(accepted.structuredContent).toEqual({ path: 'notes/wire.txt', bytes: 20, created: true });
    expect(readFileSync(target, 'utf8')).toBe('written on the wire\n');
  });

  it('official client: no file while the user is asked, nor after a decline; the content after an accept', async () => {
    const target = path.join(s.scope, 'notes', 'client.txt');
    const existedWhenAsked: boolean[] = [];
    s.elicitor.onAsk = () => existedWhenAsked.push(existsSync(target));
    try {
      s.elicitor.answer = { action: 'decline' };
      const declined = await s.client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'hello\n' },
      });
      expect(declined.isError).toBe(true);
      expect(textOf(declined)).toBe('The user declined "Write a file" (write_file); nothing was done.');
      expect(existsSync(target)).toBe(false);

      s.elicitor.answer = accept;
      const accepted = await s.client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'hello\n' },
      });
      expect(accepted.isError).toBeUndefined();
      expect(accepted.structuredContent).toEqual({ path: 'notes/client.txt', bytes: 6, created: true });
      expect(readFileSync(target, 'utf8')).toBe('hello\n');
      expect(existedWhenAsked).toEqual([false, false]);

      const again = await s.client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'clobber\n' },
      });
      expect(textOf(again)).toBe('"notes/client.txt" already exists; pass overwrite: true to replace it.');
      expect(readFileSync(target, 'utf8')).toBe('hello\n');
      const replaced = await s.client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'replaced\n', overwrite: true },
      });
      expect(replaced.structuredContent).toEqual({ path: 'notes/client.txt', bytes: 9, created: false });
      expect(readFileSync(target, 'utf8')).toBe('replaced\n');
    } finally {
      delete s.elicitor.onAsk;
      s.elicitor.answer = { action: 'decline' };
    }
  });

  it('refuses even an approved write outside the scope: ../, absolute, a link to a file or a directory', async () => {
    s.elicitor.answer = accept;
    try {
      expect(await toolError(s, 'write_file', { path: '../outside/pwned.txt', content: 'x' })).toBe(
        '"../outside/pwned.txt" leaves the scope directory; ".." is not allowed.',
      );
      expect(await toolError(s, 'write_file', { path: path.join(s.outside, 'pwned.txt'), content: 'x' })).toBe(
        `${JSON.stringify(path.join(s.outside, 'pwned.txt'))} is an ` +
          'absolute path; paths are relative to the scope directory.',
      );
      expect(await toolError(s, 'write_file', { path: 'escape.txt', content: 'x', overwrite: true })).toBe(
        '"escape.txt" resolves outside the scope directory through a symbolic link; refused.',
      );
      expect(await toolError(s, 'write_file', { path: 'outdir/pwned.txt', content: 'x' })).toBe(
        '"outdir/pwned.txt" resolves outside the scope directory through a symbolic link; refused.',
      );
      expect(await toolError(s, 'write_file', { path: 'missing/new.txt', content: 'x' })).toBe(
        'The directory "missing" does not exist; write_file does not create directories.',
      );
      expectOutsideUntouched(s);
      expect(existsSync(path.join(s.scope, 'missing'))).toBe(false);
    } finally {
      s.elicitor.answer = { action: 'decline' };
    }
  });
});

describe('examples/files: special files planted in the scope', () => {
  // Planted in their own folder after the listing tests, so those see the scope as built above.
  beforeAll(() => {
    mkdirSync(path.join(s.scope, 'traps'));
    const fifo = spawnSync('mkfifo', [path.join(s.scope, 'traps', 'pipe')]);
    expect(fifo.status).toBe(0);
    linkSync(s.secret, path.join(s.scope, 'traps', 'hard.txt'));
  });

  it('a FIFO is refused without blocking, again and again, and other files still read', async () => {
    // More reads than libuv has threads: a blocking open would leave none for the next file call.
    for (let i = 0; i < 6; i += 1) {
      expect(await readError(s, 'files://read/traps/pipe')).toEqual({
        code: -32602,
        message: 'Resource not found: files://read/traps/pipe',
      });
    }
    expect(
      (await s.client.readResource({ uri: 'files://read/notes/todo.txt' }, { cacheMode: 'bypass' })).contents,
    ).toEqual([{ uri: 'files://read/notes/todo.txt', mimeType: 'text/plain', text: 'buy milk\n' }]);
    s.elicitor.answer = accept;
    try {
      expect(await toolError(s, 'write_file', { path: 'traps/pipe', content: 'x', overwrite: true })).toBe(
        '"traps/pipe" is not a regular file.',
      );
    } finally {
      s.elicitor.answer = { action: 'decline' };
    }
  }, 60_000);

  it('a hard link to a file outside is neither read nor, even approved, overwritten', async () => {
    expect(await readError(s, 'files://read/traps/hard.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/traps/hard.txt',
    });
    s.elicitor.answer = accept;
    try {
      expect(await toolError(s, 'write_file', { path: 'traps/hard.txt', content: 'pwned\n', overwrite: true })).toBe(
        '"traps/hard.txt" has 2 hard links, so it may be a file outside the scope directory; refused.',
      );
    } finally {
      s.elicitor.answer = { action: 'decline' };
    }
    expectOutsideUntouched(s);
  });
});

describe('examples/files: configuration', () => {
  it('its README names FILES_ROOT before the first command that starts the server', () => {
    const readme = readFileSync(path.join(repoRoot, 'examples', 'files', 'README.md'), 'utf8');
    const run = readme.slice(readme.indexOf('## Run it'));
    expect(run.indexOf('FILES_ROOT')).toBeGreaterThan(0);
    expect(run.indexOf('FILES_ROOT')).toBeLessThan(run.indexOf('npm start'));
    expect(run).toContain('FILES_ROOT=/path/to/project npm start');
  });

  /** The result of one stat_file call to a fresh server started with `env`, which must then exit cleanly. */
  async function statWith(env: NodeJS.ProcessEnv, target: string): Promise<unknown> {
    const server = startRawStdio(s.entry, env);
    try {
      const params = { name: 'stat_file', arguments: { path: target }, _meta: metaOf() };
      return (await server.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })).result;
    } finally {
      expect(await server.close()).toBe(0);
    }
  }

  it('where /proc/self/fd is missing (process.platform patched to darwin) every call is refused', async () => {
    const patch = "--import=data:text/javascript,Object.defineProperty(process,'platform',{value:'darwin'})";
    expect(await statWith({ FILES_ROOT: s.scope, NODE_OPTIONS: patch }, 'notes/todo.txt')).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'This server opens every path relative to an open directory through /proc/self/fd, which it cannot ' +
            'do on darwin; it refuses every call instead of checking paths in a way a concurrent rename can defeat.',
        },
      ],
    });
  });

  it('without FILES_ROOT every call says how to configure the scope', async () => {
    expect(await statWith({}, '.')).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'FILES_ROOT is not set: start the server with ' +
            'FILES_ROOT=<directory> to choose the directory it may use.',
        },
      ],
    });
  });
});
