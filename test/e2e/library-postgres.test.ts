import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.js';
import { type RunningPostgres, startPostgres } from '../support/postgres.js';
import { metaOf, type RawStdio, startRawStdio } from '../support/servers.js';

// A user's own backend, end to end: `init --example library` (handlers that use pg), a plain `npm install`,
// `npm run build`, and the bundle a host runs (`node dist/server.mjs` with the database URL in its environment)
// against a real PostgreSQL 15 started here. setup and teardown each run exactly once, whether the host closes
// stdin or sends SIGTERM; the project's own `npm test` never changes the configured data, and changes rows of its
// throwaway schema only with MCP_GEN_TEST_WRITES=1. One install serves every case of the file.

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-e2e-pg-')));
const dir = path.join(root, 'library');
const server = path.join(dir, 'dist', 'server.mjs');
let postgres: RunningPostgres;
let databaseUrl: string;

afterAll(() => {
  postgres?.stop();
  rmSync(root, { recursive: true, force: true });
}, 120_000);

function run(command: string, args: string[], env: Readonly<Record<string, string>> = {}, timeout = 300_000) {
  const result = spawnSync(command, args, {
    cwd: dir,
    encoding: 'utf8',
    timeout,
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...env,
    },
  });
  return { code: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = postgres.createDatabase('library');
  const init = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'init', 'library', '--example', 'library', '--yes'],
    { cwd: root, encoding: 'utf8', timeout: 300_000 },
  );
  expect(init.status, init.stdout + init.stderr).toBe(0);
  const install = run('npm', ['install'], { npm_config_prefer_offline: 'true' }, 600_000);
  expect(install.code, install.output).toBe(0);
  const build = run('npm', ['run', 'build']);
  expect(build.code, build.output).toBe(0);
}, 900_000);

const setupLine = 'library: connected to PostgreSQL, schema library';
const teardownLine = 'library: connection pool closed';

/** How many stderr lines are exactly `line`. */
const count = (stderr: string, line: string) => stderr.split('\n').filter((l) => l === line).length;

let nextId = 1;
async function callTool(host: RawStdio, name: string, args: Record<string, unknown>) {
  const id = nextId++;
  const answer = await host.request({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: metaOf('2026-07-28') },
  });
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  return answer.result as { isError?: boolean; structuredContent?: Record<string, unknown> };
}

/** The server as a host starts it: `node dist/server.mjs`, only PATH and the configured variables. */
const startHost = () => startRawStdio(server, { LIBRARY_DATABASE_URL: databaseUrl });

/** Waits (bounded) for the process to exit after a signal; its exit code. */
function exitAfter(host: RawStdio, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => host.child.kill('SIGKILL'), 30_000);
    host.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    host.child.kill(signal);
  });
}

describe('examples/library on PostgreSQL, run as a host runs it', () => {
  it('answers tools/call from the database, setup and teardown once each on stdin EOF', async () => {
    const host = startHost();
    const found = await callTool(host, 'search_books', { query: 'le guin' });
    expect(found.structuredContent).toEqual({
      books: [
        { id: 'B-002', title: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin', available: false },
        { id: 'B-001', title: 'The Dispossessed', author: 'Ursula K. Le Guin', available: true },
      ],
    });
    // The same rows as the database holds them (setup created and seeded the schema of a fresh database).
    expect(
      postgres.query(
        'library',
        "SELECT id, title, available FROM library.books WHERE author ILIKE '%le guin%' ORDER BY id",
      ),
    ).toBe('B-001|The Dispossessed|t\nB-002|A Wizard of Earthsea|f\n');

    // A basket handle, then a checkout that changes the book's row and adds a loan row in one transaction.
    const basket = (await callTool(host, 'start_basket', { member: 'M-002' })).structuredContent?.basket;
    expect(typeof basket).toBe('string');
    expect((await callTool(host, 'add_to_basket', { basket, book_id: 'B-003' })).structuredContent).toEqual({
      books: ['B-003'],
    });
    const checkout = await callTool(host, 'checkout_basket', { basket });
    const loans = checkout.structuredContent?.loans as { id: string; book_id: string; due: string }[];
    expect(loans.map((loan) => [loan.id, loan.book_id])).toEqual([['L-1003', 'B-003']]);
    expect(postgres.query('library', "SELECT available FROM library.books WHERE id = 'B-003'")).toBe('f\n');
    expect(
      postgres.query(
        'library',
        "SELECT book_id, member_id, status, due = current_date + 21 FROM library.loans WHERE id = 'L-1003'",
      ),
    ).toBe('B-003|M-002|active|t\n');
    // The basket is used up: a second checkout changes nothing.
    const again = await callTool(host, 'checkout_basket', { basket });
    expect(again.isError).toBe(true);

    expect(await host.close()).toBe(0);
    expect(count(host.stderr(), setupLine), host.stderr()).toBe(1);
    expect(count(host.stderr(), teardownLine), host.stderr()).toBe(1);
    expect(host.stderr().indexOf(setupLine)).toBeLessThan(host.stderr().indexOf(teardownLine));
    expect(host.lines.every((line) => JSON.parse(line).jsonrpc === '2.0')).toBe(true);
  }, 120_000);

  it('runs teardown once on SIGTERM', async () => {
    const host = startHost();
    const read = await callTool(host, 'search_books', { query: 'crusoe' });
    expect(read.structuredContent).toEqual({
      books: [{ id: 'B-004', title: 'Robinson Crusoe', author: 'Daniel Defoe', available: false }],
    });
    expect(await exitAfter(host, 'SIGTERM')).toBe(0);
    expect(count(host.stderr(), setupLine), host.stderr()).toBe(1);
    expect(count(host.stderr(), teardownLine), host.stderr()).toBe(1);
  }, 120_000);

  it('stops with exit 1 naming the missing variable, or when setup cannot reach the database', () => {
    const missing = spawnSync(process.execPath, [server], { encoding: 'utf8', timeout: 60_000, env: {} });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      'library: the environment is missing or has invalid configuration (1); see .env.example:\n' +
        '  LIBRARY_DATABASE_URL is required and not set\n',
    );
    const unreachable = spawnSync(process.execPath, [server], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { LIBRARY_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/library' },
    });
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/^library: setup failed: .*ECONNREFUSED 127\.0\.0\.1:1$/m);
    expect(unreachable.stderr).not.toContain(setupLine);
  }, 120_000);
});

describe("the project's npm test and the database", () => {
  it('fails in under 15 s with the server message when the database cannot be reached', () => {
    const started = Date.now();
    const test = run('npm', ['test'], { LIBRARY_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/library' });
    const seconds = (Date.now() - started) / 1000;
    expect(test.code).toBe(1);
    expect(seconds, `npm test took ${seconds} s`).toBeLessThan(15);
    expect(test.output.replace(/^ +/gm, '')).toMatch(
      /^server exited with 1: library: setup failed: connect ECONNREFUSED 127\.0\.0\.1:1$/m,
    );
  }, 120_000);

  // The loan cancel_loan's example would cancel, and its book, in the configured schema and in the test schema.
  const loan = (schema: string) =>
    postgres.query(
      'library',
      `SELECT l.status, b.available FROM ${schema}.loans l JOIN ${schema}.books b ON b.id = l.book_id ` +
        "WHERE l.id = 'L-1002'",
    );

  it('leaves the row alone by default, and counts the skipped examples', () => {
    expect(loan('library')).toBe('active|f\n');
    const test = run('npm', ['test'], { LIBRARY_DATABASE_URL: databaseUrl, MCP_GEN_TEST_WRITES: '' });
    expect(test.code, test.output.slice(-4000)).toBe(0);
    expect(test.output).toMatch(/^# fail 0$/m);
    expect(test.output).toContain(
      '# skipped: 3 example(s) of tools that change data (tool cancel_loan, tool start_basket, tool start_basket)',
    );
    expect(loan('library')).toBe('active|f\n');
    // setup ran in test mode, in its own schema, seeded afresh; nothing there changed either.
    expect(loan('library_test')).toBe('active|f\n');
  }, 600_000);

  it('changes it only with MCP_GEN_TEST_WRITES=1, and then only in the throwaway schema', () => {
    const test = run('npm', ['test'], { LIBRARY_DATABASE_URL: databaseUrl, MCP_GEN_TEST_WRITES: '1' });
    expect(test.code, test.output.slice(-4000)).toBe(0);
    expect(test.output).toMatch(/^# fail 0$/m);
    expect(test.output).toMatch(/^ {4}ok \d+ - tool cancel_loan: example \d+$/m);
    expect(test.output).not.toContain('# skipped:');
    expect(loan('library_test')).toBe('cancelled|t\n');
    expect(loan('library')).toBe('active|f\n');
  }, 600_000);
});
