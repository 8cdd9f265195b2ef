import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { accept, expectOutsideUntouched, readError, toolError, useFilesScope } from './files-scope.js';

// examples/files, reading: what the scope holds is read and listed, links inside are walked by the server, and
// every way out of the scope (.., absolute paths, links) is refused before anything is read (files-scope.ts).

const s = useFilesScope('read');

describe('examples/files: reading inside the scope', () => {
  it('reads an allowed file as text, a binary file as base64, and follows a link that stays inside', async () => {
    expect((await s.client.readResource({ uri: 'files://read/notes/todo.txt' })).contents).toEqual([
      { uri: 'files://read/notes/todo.txt', mimeType: 'text/plain', text: 'buy milk\n' },
    ]);
    expect((await s.client.readResource({ uri: 'files://read/logo.bin' })).contents).toEqual([
      { uri: 'files://read/logo.bin', mimeType: 'application/octet-stream', blob: '/wD+' },
    ]);
    expect((await s.client.readResource({ uri: 'files://read/inside-link.txt' })).contents).toEqual([
      { uri: 'files://read/inside-link.txt', mimeType: 'text/plain', text: 'buy milk\n' },
    ]);
  });

  it('lists the top directory and a subdirectory, reporting links without following them', async () => {
    const top = await s.client.readResource({ uri: 'files://list/' });
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
    const notes = await s.client.readResource({ uri: 'files://list/notes' });
    expect(JSON.parse((notes.contents[0] as { text: string }).text)).toEqual({
      path: 'notes',
      entries: [{ name: 'todo.txt', type: 'file', size: 9 }],
    });
  });

  it('stat_file describes files and directories; search_files finds names without following links', async () => {
    const stat = await s.client.callTool({ name: 'stat_file', arguments: { path: 'notes/todo.txt' } });
    expect(stat.structuredContent).toMatchObject({ path: 'notes/todo.txt', type: 'file', size: 9 });
    expect(typeof (stat.structuredContent as { modified: unknown }).modified).toBe('string');
    expect((await s.client.callTool({ name: 'stat_file', arguments: { path: '.' } })).structuredContent).toMatchObject({
      path: '.',
      type: 'directory',
    });
    expect(
      (await s.client.callTool({ name: 'stat_file', arguments: { path: 'inside-link.txt' } })).structuredContent,
    ).toMatchObject({ path: 'inside-link.txt', type: 'file', size: 9 });
    const search = await s.client.callTool({ name: 'search_files', arguments: { query: 'T' } });
    expect(search.structuredContent).toEqual({ matches: [{ path: 'notes/todo.txt', size: 9 }], truncated: false });
    const limited = await s.client.callTool({ name: 'search_files', arguments: { query: 'o', limit: 1 } });
    expect(limited.structuredContent).toEqual({ matches: [{ path: 'logo.bin', size: 3 }], truncated: true });
  });
});

describe('examples/files: leaving the scope is refused before any read', () => {
  it('refuses ../ traversal: as a tool error, and as -32602 for resources', async () => {
    expect(await toolError(s, 'stat_file', { path: '../outside/secret.txt' })).toBe(
      '"../outside/secret.txt" leaves the scope directory; ".." is not allowed.',
    );
    expect(await toolError(s, 'stat_file', { path: 'notes/../../outside/secret.txt' })).toBe(
      '"notes/../../outside/secret.txt" leaves the scope directory; ".." is not allowed.',
    );
    expect(await toolError(s, 'search_files', { query: 'secret', path: '..' })).toBe(
      '".." leaves the scope directory; ".." is not allowed.',
    );
    // Encoded slashes survive URL parsing, so the handler sees "notes/../../outside/secret.txt" and refuses it.
    const encoded = 'files://read/notes%2F..%2F..%2Foutside%2Fsecret.txt';
    expect(await readError(s, encoded)).toEqual({ code: -32602, message: `Resource not found: ${encoded}` });
    // Plain "../" is removed by URL parsing itself (files://read/outside/secret.txt), which names nothing in the scope.
    expect(await readError(s, 'files://read/../outside/secret.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/outside/secret.txt',
    });
    expect(await readError(s, 'files://list/notes%2F..%2F..')).toEqual({
      code: -32602,
      message: 'Resource not found: files://list/notes%2F..%2F..',
    });
  });

  it('refuses absolute paths', async () => {
    expect(await toolError(s, 'stat_file', { path: '/etc/passwd' })).toBe(
      '"/etc/passwd" is an absolute path; paths are relative to the scope directory.',
    );
    expect(await toolError(s, 'stat_file', { path: s.secret })).toBe(
      `${JSON.stringify(s.secret)} is an absolute path; paths are relative to the scope directory.`,
    );
    expect(await toolError(s, 'stat_file', { path: 'C:\\Windows' })).toBe(
      '"C:\\\\Windows" is an absolute path; paths are relative to the scope directory.',
    );
    const encoded = `files://read/${encodeURIComponent(s.secret)}`;
    expect(await readError(s, encoded)).toEqual({ code: -32602, message: `Resource not found: ${encoded}` });
    expect(await readError(s, `files://read/${s.secret}`)).toEqual({
      code: -32602,
      message: `Resource not found: files://read/${s.secret}`,
    });
  });

  it('refuses symbolic links that resolve outside the scope, file or directory', async () => {
    expect(await toolError(s, 'stat_file', { path: 'escape.txt' })).toBe(
      '"escape.txt" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await toolError(s, 'stat_file', { path: 'outdir/secret.txt' })).toBe(
      '"outdir/secret.txt" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await toolError(s, 'search_files', { query: 'secret', path: 'outdir' })).toBe(
      '"outdir" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await readError(s, 'files://read/escape.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/escape.txt',
    });
    expect(await readError(s, 'files://read/outdir/secret.txt')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/outdir/secret.txt',
    });
    expect(await readError(s, 'files://list/outdir')).toEqual({
      code: -32602,
      message: 'Resource not found: files://list/outdir',
    });
    expect(
      (await s.client.callTool({ name: 'search_files', arguments: { query: 'secret' } })).structuredContent,
    ).toEqual({ matches: [], truncated: false });
  });
});

describe('examples/files: links inside the scope are walked by the server, never by the kernel', () => {
  // In their own folder, planted after the listing tests: a relative link that climbs and comes back, an
  // absolute link into the scope, one that climbs out, a loop, and a link to a directory.
  beforeAll(() => {
    const links = path.join(s.scope, 'links');
    mkdirSync(links);
    symlinkSync(path.join('..', 'notes', 'todo.txt'), path.join(links, 'up.txt'));
    symlinkSync(path.join(s.scope, 'notes', 'todo.txt'), path.join(links, 'absolute.txt'));
    symlinkSync(path.join('..', '..', 'outside', 'secret.txt'), path.join(links, 'climb.txt'));
    symlinkSync('loop-b', path.join(links, 'loop-a'));
    symlinkSync('loop-a', path.join(links, 'loop-b'));
    symlinkSync(path.join('..', 'notes'), path.join(links, 'notes-dir'));
  });

  it('follows relative and absolute links that stay inside, and names what they lead to', async () => {
    for (const name of ['up.txt', 'absolute.txt']) {
      expect((await s.client.readResource({ uri: `files://read/links/${name}` })).contents).toEqual([
        { uri: `files://read/links/${name}`, mimeType: 'text/plain', text: 'buy milk\n' },
      ]);
    }
    const search = await s.client.callTool({
      name: 'search_files',
      arguments: { query: 'todo', path: 'links/notes-dir' },
    });
    expect(search.structuredContent).toEqual({ matches: [{ path: 'notes/todo.txt', size: 9 }], truncated: false });
    const listed = await s.client.readResource({ uri: 'files://list/links/notes-dir' });
    const listing = JSON.parse((listed.contents[0] as { text: string }).text) as { path: string; entries: unknown[] };
    expect(listing.path).toBe('links/notes-dir');
    expect(listing.entries).toContainEqual({ name: 'todo.txt', type: 'file', size: 9 });
  });

  it('refuses a link that climbs out and a loop of links', async () => {
    expect(await toolError(s, 'stat_file', { path: 'links/climb.txt' })).toBe(
      '"links/climb.txt" resolves outside the scope directory through a symbolic link; refused.',
    );
    expect(await toolError(s, 'stat_file', { path: 'links/loop-a' })).toBe(
      '"links/loop-a" is a loop of symbolic links.',
    );
    expect(await readError(s, 'files://read/links/loop-b')).toEqual({
      code: -32602,
      message: 'Resource not found: files://read/links/loop-b',
    });
  });

  it('writes through a linked directory into its target, and never creates the target of a final link', async () => {
    s.elicitor.answer = accept;
    try {
      const written = await s.client.callTool({
        name: 'write_file',
        arguments: { path: 'links/notes-dir/linked.txt', content: 'via link\n' },
      });
      expect(written.structuredContent).toEqual({ path: 'links/notes-dir/linked.txt', bytes: 9, created: true });
      expect(readFileSync(path.join(s.scope, 'notes', 'linked.txt'), 'utf8')).toBe('via link\n');
      expect(await toolError(s, 'write_file', { path: 'links/up.txt', content: 'x' })).toBe(
        '"links/up.txt" already exists; pass overwrite: true to replace it.',
      );
      symlinkSync('nowhere.txt', path.join(s.scope, 'links', 'dangling.txt'));
      expect(await toolError(s, 'write_file', { path: 'links/dangling.txt', content: 'x', overwrite: true })).toBe(
        '"links/dangling.txt" is a symbolic link that leads nowhere; refused.',
      );
      expect(existsSync(path.join(s.scope, 'links', 'nowhere.txt'))).toBe(false);
      expect(await toolError(s, 'write_file', { path: 'links/climb.txt', content: 'x', overwrite: true })).toBe(
        '"links/climb.txt" resolves outside the scope directory through a symbolic link; refused.',
      );
    } finally {
      s.elicitor.answer = { action: 'decline' };
    }
    expectOutsideUntouched(s);
  });
});
