import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect } from 'vitest';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import { compileExample, connectStdio, textOf, type Elicitor } from './support.js';

// examples/files: a directory scope given as configuration (FILES_ROOT), compiled from the committed project
// and driven over stdio by the official client. Each test file builds a scope of its own with a file, a binary
// file, a link that stays inside, and links that lead outside to a secret; nothing outside may ever be read or
// written.

/** One test file's scope, the server compiled for it, and the clients talking to it. */
export interface FilesScope {
  readonly base: string;
  readonly scope: string;
  readonly outside: string;
  readonly secret: string;
  readonly entry: string;
  readonly client: Client;
  readonly raw: RawStdio;
  readonly elicitor: Elicitor;
}

/** The answer that approves a write. */
export const accept: Elicitor['answer'] = { action: 'accept', content: { confirm: true } };

/** The client capabilities a raw request declares so that the server may ask for approval. */
export const capabilities = { elicitation: { form: {} } };

/** Builds a fresh scope, compiles the example into a folder of `label`'s own, and connects both clients. */
async function openFilesScope(label: string): Promise<FilesScope> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), `mcp-gen-files-${label}-`)));
  const scope = path.join(base, 'scope');
  const outside = path.join(base, 'outside');
  const secret = path.join(outside, 'secret.txt');
  mkdirSync(path.join(scope, 'notes'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(scope, 'notes', 'todo.txt'), 'buy milk\n');
  writeFileSync(path.join(scope, 'readme.md'), '# Scope\n');
  writeFileSync(path.join(scope, 'logo.bin'), Buffer.from([0xff, 0x00, 0xfe]));
  writeFileSync(secret, 'top secret\n');
  symlinkSync(secret, path.join(scope, 'escape.txt'));
  symlinkSync(outside, path.join(scope, 'outdir'));
  symlinkSync(path.join('notes', 'todo.txt'), path.join(scope, 'inside-link.txt'));
  const entry = compileExample('files', label);
  const elicitor: Elicitor = { answer: { action: 'decline' }, seen: [] };
  const client = await connectStdio(entry, elicitor, { FILES_ROOT: scope });
  const raw = startRawStdio(entry, { FILES_ROOT: scope });
  return { base, scope, outside, secret, entry, client, raw, elicitor };
}

/**
 * The scope of the test file that calls this at its top: opened before its tests, closed after them. The object is
 * filled in by then; reading it at the top of the file would find it empty.
 */
export function useFilesScope(label: string): FilesScope {
  const s = {} as FilesScope;
  beforeAll(async () => {
    Object.assign(s, await openFilesScope(label));
  }, 120_000);
  afterAll(() => closeFilesScope(s.base === undefined ? undefined : s));
  return s;
}

/** Stops both clients and removes the scope. */
async function closeFilesScope(s: FilesScope | undefined): Promise<void> {
  await s?.client.close();
  await s?.raw.close();
  if (s !== undefined) rmSync(s.base, { recursive: true, force: true });
}

/** The JSON-RPC error of reading `uri` (the read must fail). */
export async function readError(s: FilesScope, uri: string): Promise<{ code: unknown; message: unknown }> {
  try {
    await s.client.readResource({ uri }, { cacheMode: 'bypass' });
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message };
  }
  throw new Error(`reading ${uri} succeeded`);
}

/** The text of a tool call that must fail. */
export async function toolError(s: FilesScope, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await s.client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return textOf(result);
}

/** The outside directory must hold exactly the secret, unchanged. */
export function expectOutsideUntouched(s: FilesScope): void {
  expect(readdirSync(s.outside)).toEqual(['secret.txt']);
  expect(readFileSync(s.secret, 'utf8')).toBe('top secret\n');
}
