import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes.js';

// A throwaway PostgreSQL 15 cluster for tests of a backend users really have: its own data folder in the
// system's temporary folder, trust authentication on 127.0.0.1 only, a free port, fsync off (nothing in it
// outlives the test). initdb and pg_ctl refuse to run as root, so as root they run as the `postgres` user,
// which owns the folder. .ci/run installs PostgreSQL 15 from Debian's packages when it is missing.

/** Where Debian's postgresql-15 package puts its server programs. */
const bin = process.env.MCP_GEN_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A running cluster. */
export interface RunningPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  readonly port: number;
  /** The URL of database `name`, created empty. */
  createDatabase(name: string): string;
  /** Runs `sql` in database `name` with psql; the rows as psql's unaligned output (`|` between columns). */
  query(name: string, sql: string): string;
  /** Stops the server (`pg_ctl stop -m fast`: open connections are closed), keeping its data. */
  pause(): void;
  /** Starts the paused server again on the same port, with the same data. */
  resume(): void;
  stop(): void;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as the postgres user when this process is root; throws with its output. */
function pg(program: string, args: readonly string[], timeoutMs = 120_000): string {
  const command = asRoot ? 'runuser' : path.join(bin, program);
  const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : [...args];
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: timeoutMs });
  if (result.status !== 0) {
    const why = result.error?.message ?? `exit ${result.status}`;
    throw new Error(`${program} failed (${why}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/** Starts a new cluster and waits until it accepts connections. */
export async function startPostgres(): Promise<RunningPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-pg-'));
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(ids.stdout.trim()), Number(group.stdout.trim()));
  }
  const data = path.join(dir, 'data');
  pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () => pg('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const psql = (name: string, sql: string) =>
    pg('psql', [
      '-X',
      '-q',
      '-At',
      '-v',
      'ON_ERROR_STOP=1',
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      name,
      '-c',
      sql,
    ]);
  let stopped = false;
  return {
    url,
    port,
    createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      psql('postgres', `CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    query: (name, sql) => psql(name, sql),
    pause: () => void pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    resume: () => void start(),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
