import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';

// `mcp-gen dev` as a user runs it in a project made by `init`: it builds and serves over HTTP on the
// port given, a handler save reaches the next call with no call failing meanwhile, a type error is
// printed with its place while the last good server keeps answering, and Ctrl-C (SIGINT) stops the
// server it started.

const work = path.join(repoRoot, '.test-out', 'dev');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const env = { PATH: process.env.PATH ?? '' };
const run = promisify(execFile);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Waits (bounded) until `read()` satisfies `done`. */
async function until(read: () => string, done: (text: string) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (done(read())) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}; output so far:\n${read()}`);
}

let dev: ChildProcess | undefined;
afterAll(() => {
  if (dev?.exitCode === null) dev.kill('SIGKILL');
});

describe('mcp-gen dev', () => {
  it('serves, follows handler saves, keeps the last good server on a type error, stops on Ctrl-C', async () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const init = spawnSync(
      process.execPath,
      [cli, 'init', 'demo', '--example', 'demo', '--transport', 'both', '--yes'],
      {
        cwd: work,
        encoding: 'utf8',
        timeout: 60_000,
        env,
      },
    );
    expect(init.status, init.stderr).toBe(0);
    const project = path.join(work, 'demo');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    let stdout = '';
    let stderr = '';
    dev = spawn(process.execPath, [cli, 'dev', '--port', String(port)], { cwd: project, env });
    dev.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    dev.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const built = () => stdout.split('built; server restarted').length - 1;
    await until(
      () => stdout,
      (text) => text.includes(`server: ${url}\n`),
      'the server URL',
    );
    const sum = async () => {
      const { stdout: printed } = await run(
        process.execPath,
        [cli, 'call', 'add', '--url', url, '--arg', 'a=2', '--arg', 'b=3'],
        {
          env,
          timeout: 60_000,
        },
      );
      return JSON.parse(printed).structuredContent.sum as number;
    };
    expect(await sum()).toBe(5);

    const handler = path.join(project, 'src', 'handlers', 'tools', 'add.ts');
    const original = readFileSync(handler, 'utf8');
    // A client calling all through the restart is always answered: the old server until the new one listens.
    const client = new Client(
      { name: 'dev-test', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const sums: number[] = [];
    const before = built();
    writeFileSync(handler, original.replace('input.a + input.b', 'input.a + input.b + 100'));
    for (let i = 0; i < 3000 && sums.at(-1) !== 105; i++) {
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      sums.push((result.structuredContent as { sum: number }).sum);
    }
    await client.close();
    expect(sums.at(-1)).toBe(105);
    expect(sums.filter((value) => value !== 5 && value !== 105)).toEqual([]);
    expect(sums.length).toBeGreaterThan(1);
    await until(
      () => stdout,
      () => built() > before,
      'a rebuild after the handler save',
    );
    expect(await sum()).toBe(105);

    writeFileSync(handler, original.replace('input.a + input.b', '"x"'));
    await until(
      () => stdout,
      (text) => text.includes('typecheck: 1 error(s); the last good server keeps running\n'),
      'the type error',
    );
    expect(stderr).toMatch(
      /^src\/handlers\/tools\/add\.ts:\d+:\d+: error \[TS2322\] Type 'Promise<\{ sum: string; \}>'/m,
    );
    expect(await sum()).toBe(105);

    const exited = new Promise<number | null>((resolve) => dev?.once('exit', (code) => resolve(code)));
    dev.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect(sum()).rejects.toThrow();
  }, 300_000);
});
