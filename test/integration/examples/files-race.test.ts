import { type ChildProcess, spawn } from 'node:child_process';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileExample, connectStdio, textOf, type Elicitor } from './support.js';

// examples/files against a local process that swaps a directory of the scope for a symbolic link to a
// folder next to the scope, as fast as it can, while the real server (compiled example, official client over
// stdio, every write approved through the elicitation round trip) serves calls on paths through that
// directory. Every one of the 1,500 writes and 1,500 reads goes through the server; none calls a handler
// directly. Nothing outside may be written or read, whichever instant the swap lands on.

const calls = 1500;
/** Calls in flight at once, so that the server handles several while the swapper runs. */
const parallel = 8;

let base = '';
let scope = '';
let outside = '';
let client: Client;
const elicitor: Elicitor = { answer: { action: 'accept', content: { confirm: true } }, seen: [] };

// The swapper: `<name>` is a folder, then missing, then the link, then missing, then the folder again, by
// four renames per round; it stops (always after a whole round) at the stop file or the deadline, then
// prints how many rounds it made.
const swapper = `
const fs = require('node:fs');
const path = require('node:path');
const [scope, name, stopFile, deadline] = process.argv.slice(1);
const here = path.join(scope, name), parked = here + '.parked', link = here + '.link';
let rounds = 0;
while (Date.now() < Number(deadline)) {
  fs.renameSync(here, parked);
  fs.renameSync(link, here);
  fs.renameSync(here, link);
  fs.renameSync(parked, here);
  rounds += 1;
  if (rounds === 1) process.stdout.write('started\\n');
  if (rounds % 32 === 0 && fs.existsSync(stopFile)) break;
}
process.stdout.write(rounds + '\\n');
`;

interface Swapper {
  /** Stops the swapper; resolves with its number of rounds once it has exited (the folder back in place). */
  stop(): Promise<number>;
}

/** Starts swapping `scope/<name>` (a folder) with `scope/<name>.link` (a link to ../outside). */
async function startSwapper(name: string): Promise<Swapper> {
  const stopFile = path.join(base, `stop-${name}`);
  const child: ChildProcess = spawn(
    process.execPath,
    ['-e', swapper, scope, name, stopFile, String(Date.now() + 50_000)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.startsWith('started\n')) resolve();
    });
    child.once('exit', () => reject(new Error(`the swapper exited before it started: ${out}`)));
  });
  return {
    stop: async () => {
      writeFileSync(stopFile, '');
      expect(await exited).toBe(0);
      return Number(out.trim().split('\n').at(-1));
    },
  };
}

/** Runs `call(i)` for i in [0, calls), `parallel` at a time. */
async function runAll<T>(call: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(calls);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < calls; i = next++) results[i] = await call(i);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

const outsideFiles = { 'only-outside.txt': 'outside\n', 'secret.txt': 'top secret\n', 'x.txt': 'bait\n' };

/** The outside folder must hold exactly its three files, unchanged. */
function expectOutsideUntouched(): void {
  expect(readdirSync(outside).sort()).toEqual(Object.keys(outsideFiles));
  for (const [name, text] of Object.entries(outsideFiles))
    expect(readFileSync(path.join(outside, name), 'utf8')).toBe(text);
}

/** A folder `scope/<name>` holding `files`, and `scope/<name>.link` -> ../outside. */
function swappable(name: string, files: Record<string, string>): void {
  mkdirSync(path.join(scope, name));
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(scope, name, file), text);
  symlinkSync(path.join('..', 'outside'), path.join(scope, `${name}.link`));
}

beforeAll(async () => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-files-race-')));
  scope = path.join(base, 'scope');
  outside = path.join(base, 'outside');
  mkdirSync(scope);
  mkdirSync(outside);
  for (const [name, text] of Object.entries(outsideFiles)) writeFileSync(path.join(outside, name), text);
  swappable('dir', {});
  swappable('rdir', { 'inside-only.txt': 'in\n', 'secret.txt': 'inside\n' });
  client = await connectStdio(compileExample('files', 'race'), elicitor, { FILES_ROOT: scope });
}, 120_000);

afterAll(async () => {
  await client?.close();
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

describe('examples/files: a directory swapped for a link to outside while calls run', () => {
  it('1,500 approved writes through dir/ while it is swapped: none lands outside', async () => {
    // Every fourth call overwrites dir/x.txt (outside holds an x.txt to bait it); the others create a file
    // of their own, so that each write that landed outside would be one more file there.
    const argsOf = (i: number) =>
      i % 4 === 0
        ? { path: 'dir/x.txt', content: `call ${i}\n`, overwrite: true }
        : { path: `dir/x-${i}.txt`, content: `call ${i}\n` };
    const swap = await startSwapper('dir');
    let results: { ok: boolean; text: string }[];
    try {
      results = await runAll(async (i) => {
        const result = await client.callTool({ name: 'write_file', arguments: argsOf(i) });
        return result.isError === true
          ? { ok: false, text: textOf(result) }
          : { ok: true, text: JSON.stringify(result.structuredContent) };
      });
    } finally {
      const rounds = await swap.stop();
      console.info(`files race: the swapper made ${rounds} rounds during the writes`);
    }
    expectOutsideUntouched();
    expect(elicitor.seen.length).toBe(calls); // each call was approved through the round trip first

    const succeeded = results.flatMap((r, i) => (r.ok ? [i] : []));
    const refusals = new Set(results.filter((r) => !r.ok).map((r) => r.text.replace(/x-\d+\.txt/, 'x-N.txt')));
    console.info(
      `files race: ${succeeded.length} of ${calls} writes succeeded inside, ${calls - succeeded.length} refused`,
    );
    // Both outcomes occurred, so the swap really raced the calls; and a refusal says why, in one of two ways.
    expect(succeeded.length).toBeGreaterThan(0);
    expect(succeeded.length).toBeLessThan(calls);
    for (const text of refusals) {
      expect([
        'The directory "dir" does not exist; write_file does not create directories.',
        '"dir/x.txt" resolves outside the scope directory through a symbolic link; refused.',
        '"dir/x-N.txt" resolves outside the scope directory through a symbolic link; refused.',
      ]).toContain(text);
    }
    // Every write that succeeded is in the folder, with its content.
    const unique = succeeded.filter((i) => i % 4 !== 0);
    for (const i of unique) expect(readFileSync(path.join(scope, 'dir', `x-${i}.txt`), 'utf8')).toBe(`call ${i}\n`);
    expect(readdirSync(path.join(scope, 'dir')).filter((name) => name !== 'x.txt').length).toBe(unique.length);
    if (succeeded.some((i) => i % 4 === 0))
      expect(readFileSync(path.join(scope, 'dir', 'x.txt'), 'utf8')).toMatch(/^call \d+\n$/);
  }, 120_000);

  it('1,500 reads, listings, stats and searches through rdir/ while it is swapped: nothing from outside', async () => {
    const swap = await startSwapper('rdir');
    const seen: string[] = [];
    try {
      await runAll(async (i) => {
        try {
          if (i % 4 === 0) {
            const read = await client.readResource({ uri: 'files://read/rdir/secret.txt' }, { cacheMode: 'bypass' });
            seen.push(`read ${JSON.stringify(read.contents.map((c) => (c as { text?: string }).text))}`);
          } else if (i % 4 === 1) {
            const listed = await client.readResource({ uri: 'files://list/rdir' }, { cacheMode: 'bypass' });
            const entries = (JSON.parse((listed.contents[0] as { text: string }).text) as { entries: unknown }).entries;
            seen.push(`list ${JSON.stringify(entries)}`);
          } else {
            const result =
              i % 4 === 2
                ? await client.callTool({ name: 'stat_file', arguments: { path: 'rdir/secret.txt' } })
                : await client.callTool({
                    name: 'search_files',
                    arguments: { query: 'only', path: i % 8 === 3 ? 'rdir' : '' },
                  });
            const content = result.structuredContent as { size?: number; matches?: unknown } | undefined;
            seen.push(
              result.isError === true
                ? `error ${textOf(result)}`
                : `ok ${JSON.stringify(content?.matches ?? content?.size)}`,
            );
          }
        } catch (error) {
          seen.push(`refused ${(error as { code?: unknown }).code}`);
        }
      });
    } finally {
      const rounds = await swap.stop();
      console.info(`files race: the swapper made ${rounds} rounds during the reads`);
    }
    expectOutsideUntouched();
    const counts = new Map<string, number>();
    for (const outcome of seen) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    const outcomes = [...counts.keys()].sort();
    console.info(
      `files race: read outcomes ${JSON.stringify(outcomes.map((outcome) => [counts.get(outcome), outcome]))}`,
    );
    const allowed = [
      'error "rdir" does not exist.',
      'error "rdir" resolves outside the scope directory through a symbolic link; refused.',
      'error "rdir/secret.txt" does not exist.',
      'error "rdir/secret.txt" resolves outside the scope directory through a symbolic link; refused.',
      'list [{"name":"inside-only.txt","type":"file","size":3},{"name":"secret.txt","type":"file","size":7}]',
      'ok 7',
      'ok []',
      'ok [{"path":"rdir/inside-only.txt","size":3}]',
      'ok [{"path":"rdir.parked/inside-only.txt","size":3}]',
      'read ["inside\\n"]',
      'refused -32602',
    ];
    for (const outcome of outcomes) expect(allowed).toContain(outcome);
    expect(outcomes).toContain('read ["inside\\n"]');
    expect(outcomes).toContain('refused -32602');
  }, 120_000);
});
