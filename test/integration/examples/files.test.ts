import { spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startRawStdio, type RawStdio } from '../../support/servers.js';
import { repoRoot } from '../../support/golden.js';
import { compileExample, connectStdio, textOf, type Elicitor } from './support.js';

// examples/files: a directory scope given as configuration (FILES_ROOT), compiled from the committed project
// and driven over stdio by the official client. The test builds a scope with a file, a binary file, a link
// that stays inside, and links that lead outside to a secret; nothing outside may ever be read or written.

let base = '';
let scope = '';
let outside = '';
let secret = '';
let entry = '';
let client: Client;
let raw: RawStdio;
const elicitor: Elicitor = { answer: { action: 'decline' }, seen: [] };
const accept: Elicitor['answer'] = { action: 'accept', content: { confirm: true } };
const capabilities = { elicitation: { form: {} } };

beforeAll(async () => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-files-')));
  scope = path.join(base, 'scope');
  outside = path.join(base, 'outside');
  secret = path.join(outside, 'secret.txt');
  mkdirSync(path.join(scope, 'notes'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(scope, 'notes', 'todo.txt'), 'buy milk\n');
  writeFileSync(path.join(scope, 'readme.md'), '# Scope\n');
  writeFileSync(path.join(scope, 'logo.bin'), Buffer.from([0xff, 0x00, 0xfe]));
  writeFileSync(secret, 'top secret\n');
  symlinkSync(secret, path.join(scope, 'escape.txt'));
  symlinkSync(outside, path.join(scope, 'outdir'));
  symlinkSync(path.join('notes', 'todo.txt'), path.join(scope, 'inside-link.txt'));
  entry = compileExample('files');
  client = await connectStdio(entry, elicitor, { FILES_ROOT: scope });
  raw = startRawStdio(entry, { FILES_ROOT: scope });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await raw?.close();
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

/** The JSON-RPC error of reading `uri` (the read must fail). */
async function readError(uri: string): Promise<{ code: unknown; message: unknown }> {
  try {
    await client.readResource({ uri }, { cacheMode: 'bypass' });
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  }
  throw new Error(`reading ${uri} succeeded`);
}

/** The text of a tool call that must fail. */
async function toolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return textOf(result);
}

/** The outside directory must hold exactly the secret, unchanged. */
function expectOutsideUntouched(): void {
  expect(readdirSync(outside)).toEqual(['secret.txt']);
  expect(readFileSync(secret, 'utf8')).toBe('top secret\n');
}

describe('examples/files: reading inside the scope', () => {
  it('reads an allowed file as text, a binary file as base64, and follows a link that stays inside', async () => {
    expect((await client.readResource({ uri: 'files://read/notes/todo.txt' })).contents).toEqual([
      { uri: 'files://read/notes/todo.txt', mimeType: 'text/plain', text: 'buy milk\n' },
    ]);
    expect((await client.readResource({ uri: 'files://read/logo.bin' })).contents).toEqual([
      { uri: 'files://read/logo.bin', mimeType: 'application/octet-stream', blob: '/wD+' },
    ]);
    expect((await client.readResource({ uri: 'files://read/inside-link.txt' })).contents).toEqual([
      { uri: 'files://read/inside-link.txt', mimeType: 'text/plain', text: 'buy milk\n' },
    ]);
  });

  it('lists the top directory and a subdirectory, reporting links without following them', async () => {
    const top = await client.readResource({ uri: 'files://list/' });
    expect(top.contents).toHaveLength(1);
    expect(top.contents[0]).toMatchObject({ uri: 'files://list/', mimeType: 'application/json' });
    expect(JSON.parse((top.contents[0] as { text: string }).text)).toEqual({
      path: '.',
      entries: [
        { name: 'escape.txt', type: 'symlink' },
        { name: 'inside-link.txt', type: 'symlink' },
        { name: 'logo.bin', type: 'file', size: 3 },
        { name: 'notes', type: 'directory' },
        { name: 'outdir', type: 'symlink' },
        { name: 'readme.md', type: 'file', size: 8 },
      ],
    });
    const notes = await client.readResource({ uri: 'files://list/notes' });
    expect(JSON.parse((notes.contents[0] as { text: string }).text)).toEqual({
      path: 'notes',
      entries: [{ name: 'todo.txt', type: 'file', size: 9 }],
    });
  });

  it('stat_file describes files and directories; search_files finds names without following links', async () => {
    const stat = await client.callTool({ name: 'stat_file', arguments: { path: 'notes/todo.txt' } });
    expect(stat.structuredContent).toMatchObject({ path: 'notes/todo.txt', type: 'file', size: 9 });
    expect(typeof (stat.structuredContent as { modified: unknown }).modified).toBe('string');
    expect((await client.callTool({ name: 'stat_file', arguments: { path: '.' } })).structuredContent).toMatchObject({
      path: '.',
      type: 'directory',
    });
    expect(
      (await client.callTool({ name: 'stat_file', arguments: { path: 'inside-link.txt' } })).structuredContent,
    ).toMatchObject({ path: 'inside-link.txt', type: 'file', size: 9 });
    const search = await client.callTool({ name: 'search_files', arguments: { query: 'T' } });
    expect(search.structuredContent).toEqual({ matches: [{ path: 'notes/todo.txt', size: 9 }], truncated: false });
    const limited = await client.callTool({ name: 'search_files', arguments: { query: 'o', limit: 1 } });
    expect(limited.structuredContent).toEqual({ matches: [{ path: 'logo.bin', size: 3 }], truncated: true });
  });
});

describe('examples/files: leaving the scope is refused before any read', () => {
  it('refuses ../ traversal: as a tool error, and as -32602 for resources', async () => {
    expect(await toolError('stat_file', { path: '../outside/secret.txt' })).toBe(
      '"../outside/secret.txt" leaves the scope directory; ".." is not allowed.',
    );
    expect(await toolError('stat_file', { path: 'notes/../../outside/secret.txt' })).toBe(
      '"notes/../../outside/secret.txt" leaves the scope directory; ".." is not allowed.',
    );
    expect(await toolError('search_files', { query: 'secret', path: '..' })).toBe(
      '".." leaves the scope directory; ".." is not allowed.',
    );
    // Encoded slashes survive URL parsing, so the handler sees "notes/../../outside/secret.txt" and refuses it.
    const encoded = 'files://read/notes%2F..%2F..%2Foutside%2Fsecret.txt';
    expect(await readError(encoded)).toEqual({ code: -32602, message: `Resource not found: ${encoded}` });
    // Plain "../" is removed by URL parsing itself (files://read/outside/secret.txt), which names nothing in the scope.
    expect(await readError('files://read/../outside/secret.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/outside/secret.txt',
    });
    expect(await readError('files://list/notes%2F..%2F..')).toEqual({
      code: -32602,
      message: 'Resource not found: files://list/notes%2F..%2F..',
    });
  });

  it('refuses absolute paths', async () => {
    expect(await toolError('stat_file', { path: '/etc/passwd' })).toBe(
      '"/etc/passwd" is an absolute path; paths are relative to the scope directory.',
    );
    expect(await toolError('stat_file', { path: secret })).toBe(
      `${JSON.stringify(secret)} is an absolute path; paths are relative to the scope directory.`,
    );
    expect(await toolError('stat_file', { path: 'C:\\Windows' })).toBe(
      '"C:\\\\Windows" is an absolute path; paths are relative to the scope directory.',
    );
    const encoded = `files://read/${encodeURIComponent(secret)}`;
    expect(await readError(encoded)).toEqual({ code: -32602, message: `Resource not found: ${encoded}` });
    expect(await readError(`files://read/${secret}`)).toEqual({
      code: -32602,
      message: `Resource not found: files://read/${secret}`,
    });
  });

  it('refuses symbolic links that resolve outside the scope, file or directory', async () => {
    expect(await toolError('stat_file', { path: 'escape.txt' })).toBe(
      '"escape.txt" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await toolError('stat_file', { path: 'outdir/secret.txt' })).toBe(
      '"outdir/secret.txt" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await toolError('search_files', { query: 'secret', path: 'outdir' })).toBe(
      '"outdir" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await readError('files://read/escape.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/escape.txt',
    });
    expect(await readError('files://read/outdir/secret.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/outdir/secret.txt',
    });
    expect(await readError('files://list/outdir')).toEqual({
      code: -32602,
      message: 'Resource not found: files://list/outdir',
    });
    expect((await client.callTool({ name: 'search_files', arguments: { query: 'secret' } })).structuredContent).toEqual(
      { matches: [], truncated: false },
    );
  });
});

describe('examples/files: write_file never writes before approval', () => {
  it('on the wire: input_required and no file; declined: no file; accepted with the state: the file once', async () => {
    const target = path.join(scope, 'notes', 'wire.txt');
    const args = { path: 'notes/wire.txt', content: 'written on the wire\n' };
    const first = await raw.request({
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
      raw.request({
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
    const target = path.join(scope, 'notes', 'client.txt');
    const existedWhenAsked: boolean[] = [];
    elicitor.onAsk = () => existedWhenAsked.push(existsSync(target));
    try {
      elicitor.answer = { action: 'decline' };
      const declined = await client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'hello\n' },
      });
      expect(declined.isError).toBe(true);
      expect(textOf(declined)).toBe('The user declined "Write a file" (write_file); nothing was done.');
      expect(existsSync(target)).toBe(false);

      elicitor.answer = accept;
      const accepted = await client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'hello\n' },
      });
      expect(accepted.isError).toBeUndefined();
      expect(accepted.structuredContent).toEqual({ path: 'notes/client.txt', bytes: 6, created: true });
      expect(readFileSync(target, 'utf8')).toBe('hello\n');
      expect(existedWhenAsked).toEqual([false, false]);

      const again = await client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'clobber\n' },
      });
      expect(textOf(again)).toBe('"notes/client.txt" already exists; pass overwrite: true to replace it.');
      expect(readFileSync(target, 'utf8')).toBe('hello\n');
      const replaced = await client.callTool({
        name: 'write_file',
        arguments: { path: 'notes/client.txt', content: 'replaced\n', overwrite: true },
      });
      expect(replaced.structuredContent).toEqual({ path: 'notes/client.txt', bytes: 9, created: false });
      expect(readFileSync(target, 'utf8')).toBe('replaced\n');
    } finally {
      delete elicitor.onAsk;
      elicitor.answer = { action: 'decline' };
    }
  });

  it('refuses even an approved write outside the scope: ../, absolute, a link to a file or a directory', async () => {
    elicitor.answer = accept;
    try {
      expect(await toolError('write_file', { path: '../outside/pwned.txt', content: 'x' })).toBe(
        '"../outside/pwned.txt" leaves the scope directory; ".." is not allowed.',
      );
      expect(await toolError('write_file', { path: path.join(outside, 'pwned.txt'), content: 'x' })).toBe(
        `${JSON.stringify(path.join(outside, 'pwned.txt'))} is an ` +
          'absolute path; paths are relative to the scope directory.',
      );
      expect(await toolError('write_file', { path: 'escape.txt', content: 'x', overwrite: true })).toBe(
        '"escape.txt" resolves outside the scope directory through a symbolic link; refused.',
      );
      expect(await toolError('write_file', { path: 'outdir/pwned.txt', content: 'x' })).toBe(
        '"outdir/pwned.txt" resolves outside the scope directory through a symbolic link; refused.',
      );
      expect(await toolError('write_file', { path: 'missing/new.txt', content: 'x' })).toBe(
        'The directory "missing" does not exist; write_file does not create directories.',
      );
      expectOutsideUntouched();
      expect(existsSync(path.join(scope, 'missing'))).toBe(false);
    } finally {
      elicitor.answer = { action: 'decline' };
    }
  });
});

describe('examples/files: special files planted in the scope', () => {
  // Planted in their own folder after the listing tests, so those see the scope as built above.
  beforeAll(() => {
    mkdirSync(path.join(scope, 'traps'));
    const fifo = spawnSync('mkfifo', [path.join(scope, 'traps', 'pipe')]);
    expect(fifo.status).toBe(0);
    linkSync(secret, path.join(scope, 'traps', 'hard.txt'));
  });

  it('a FIFO is refused without blocking, again and again, and other files still read', async () => {
    // More reads than libuv has threads: a blocking open would leave none for the next file call.
    for (let i = 0; i < 6; i += 1) {
      expect(await readError('files://read/traps/pipe')).toEqual({
        code: -32602,
        message: 'Resource not found: files://read/traps/pipe',
      });
    }
    expect(
      (await client.readResource({ uri: 'files://read/notes/todo.txt' }, { cacheMode: 'bypass' })).contents,
    ).toEqual([{ uri: 'files://read/notes/todo.txt', mimeType: 'text/plain', text: 'buy milk\n' }]);
    elicitor.answer = accept;
    try {
      expect(await toolError('write_file', { path: 'traps/pipe', content: 'x', overwrite: true })).toBe(
        '"traps/pipe" is not a regular file.',
      );
    } finally {
      elicitor.answer = { action: 'decline' };
    }
  }, 60_000);

  it('a hard link to a file outside is neither read nor, even approved, overwritten', async () => {
    expect(await readError('files://read/traps/hard.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/traps/hard.txt',
    });
    elicitor.answer = accept;
    try {
      expect(await toolError('write_file', { path: 'traps/hard.txt', content: 'pwned\n', overwrite: true })).toBe(
        '"traps/hard.txt" has 2 hard links, so it may be a file outside the scope directory; refused.',
      );
    } finally {
      elicitor.answer = { action: 'decline' };
    }
    expectOutsideUntouched();
  });
});

describe('examples/files: links inside the scope are walked by the server, never by the kernel', () => {
  // In their own folder, planted after the listing tests: a relative link that climbs and comes back, an
  // absolute link into the scope, one that climbs out, a loop, and a link to a directory.
  beforeAll(() => {
    const links = path.join(scope, 'links');
    mkdirSync(links);
    symlinkSync(path.join('..', 'notes', 'todo.txt'), path.join(links, 'up.txt'));
    symlinkSync(path.join(scope, 'notes', 'todo.txt'), path.join(links, 'absolute.txt'));
    symlinkSync(path.join('..', '..', 'outside', 'secret.txt'), path.join(links, 'climb.txt'));
    symlinkSync('loop-b', path.join(links, 'loop-a'));
    symlinkSync('loop-a', path.join(links, 'loop-b'));
    symlinkSync(path.join('..', 'notes'), path.join(links, 'notes-dir'));
  });

  it('follows relative and absolute links that stay inside, and names what they lead to', async () => {
    for (const name of ['up.txt', 'absolute.txt']) {
      expect((await client.readResource({ uri: `files://read/links/${name}` })).contents).toEqual([
        { uri: `files://read/links/${name}`, mimeType: 'text/plain', text: 'buy milk\n' },
      ]);
    }
    const search = await client.callTool({
      name: 'search_files',
      arguments: { query: 'todo', path: 'links/notes-dir' },
    });
    expect(search.structuredContent).toEqual({ matches: [{ path: 'notes/todo.txt', size: 9 }], truncated: false });
    const listed = await client.readResource({ uri: 'files://list/links/notes-dir' });
    const listing = JSON.parse((listed.contents[0] as { text: string }).text) as { path: string; entries: unknown[] };
    expect(listing.path).toBe('links/notes-dir');
    expect(listing.entries).toContainEqual({ name: 'todo.txt', type: 'file', size: 9 });
  });

  it('refuses a link that climbs out and a loop of links', async () => {
    expect(await toolError('stat_file', { path: 'links/climb.txt' })).toBe(
      '"links/climb.txt" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await toolError('stat_file', { path: 'links/loop-a' })).toBe('"links/loop-a" is a loop of symbolic links.');
    expect(await readError('files://read/links/loop-b')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/links/loop-b',
    });
  });

  it('writes through a linked directory into its target, and never creates the target of a final link', async () => {
    elicitor.answer = accept;
    try {
      const written = await client.callTool({
        name: 'write_file',
        arguments: { path: 'links/notes-dir/linked.txt', content: 'via link\n' },
      });
      expect(written.structuredContent).toEqual({ path: 'links/notes-dir/linked.txt', bytes: 9, created: true });
      expect(readFileSync(path.join(scope, 'notes', 'linked.txt'), 'utf8')).toBe('via link\n');
      expect(await toolError('write_file', { path: 'links/up.txt', content: 'x' })).toBe(
        '"links/up.txt" already exists; pass overwrite: true to replace it.',
      );
      symlinkSync('nowhere.txt', path.join(scope, 'links', 'dangling.txt'));
      expect(await toolError('write_file', { path: 'links/dangling.txt', content: 'x', overwrite: true })).toBe(
        '"links/dangling.txt" is a symbolic link that leads nowhere; refused.',
      );
      expect(existsSync(path.join(scope, 'links', 'nowhere.txt'))).toBe(false);
      expect(await toolError('write_file', { path: 'links/climb.txt', content: 'x', overwrite: true })).toBe(
        '"links/climb.txt" resolves outside the scope directory through a symbolic link; refused.',
      );
    } finally {
      elicitor.answer = { action: 'decline' };
    }
    expectOutsideUntouched();
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
    const server = startRawStdio(entry, env);
    try {
      const params = { name: 'stat_file', arguments: { path: target }, _meta: metaOf() };
      return (await server.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })).result;
    } finally {
      expect(await server.close()).toBe(0);
    }
  }

  it('where /proc/self/fd is missing (process.platform patched to darwin) every call is refused', async () => {
    const patch = "--import=data:text/javascript,Object.defineProperty(process,'platform',{value:'darwin'})";
    expect(await statWith({ FILES_ROOT: scope, NODE_OPTIONS: patch }, 'notes/todo.txt')).toMatchObject({
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
