import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { generateAndCompile, limits, repoRoot } from './harness.js';
import { listen } from './notify-support.js';

// Helpers of the soak tests: the bundled demo server (examples/demo) with an HTTP transport added, run under a
// 64 MiB heap, a bounded load of keep-alive requests or stdio lines, and its resident set read from /proc as it goes.

/** The heap cap of every soaked server: a call that leaks a few KiB kills it within about 10,000 calls. */
export const nodeOptions = '--max-old-space-size=64';

/**
 * examples/demo with `transports.http` beside its stdio, its manifest then changed by `edit`, and its own handlers;
 * returns the entry point.
 */
export function buildDemo(name: string, edit: (manifest: string) => string = (manifest) => manifest): string {
  const demo = path.join(repoRoot, 'examples', 'demo');
  const manifest = readFileSync(path.join(demo, 'mcp.yaml'), 'utf8').replace(
    /^ {2}stdio: \{\}$/m,
    '  stdio: {}\n  http: { host: 127.0.0.1, port: 3000, path: /mcp }',
  );
  if (!manifest.includes('http: {')) throw new Error('examples/demo/mcp.yaml no longer has `stdio: {}`');
  const handlers = ['src/setup.ts', 'src/handlers/tools/add.ts', 'src/handlers/resources/app_config.ts'];
  const texts = Object.fromEntries(handlers.map((file) => [file, readFileSync(path.join(demo, file), 'utf8')]));
  // Beside the project's folder, which generate empties.
  const file = path.join(repoRoot, '.test-out', `${name}.yaml`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, edit(manifest));
  return generateAndCompile(file, name, texts);
}

/** The resident set of process `pid` in MiB, from /proc (Linux, as CI). */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match?.[1] === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** What a soak saw: answers, the resident set every `every` calls, and the first wrong answer, if any. */
export interface SoakRun {
  readonly answered: number;
  readonly rss: number[];
  readonly wrong: string | null;
}

/**
 * Sends `request` `total` times over `connections` keep-alive connections, each with its own JSON-RPC id (a legacy
 * session routes answers by id); `check` says whether an answer is right.
 */
export async function soakHttp(
  pid: number,
  url: URL,
  request: { readonly headers: Record<string, string>; readonly body: (id: number) => string },
  check: (status: number, text: string) => boolean,
  { total, connections, every }: { total: number; connections: number; every: number },
): Promise<SoakRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const one = (id: number): Promise<[number, string]> =>
    new Promise((resolve, reject) => {
      const body = request.body(id);
      const headers = { ...request.headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = httpRequest(url, { method: 'POST', agent, headers, timeout: limits.requestMs }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve([res.statusCode ?? 0, text]));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${limits.requestMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  const run = { answered: 0, sent: 0, rss: [] as number[], wrong: null as string | null };
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (run.sent < total && run.wrong === null) {
          const [status, text] = await one(++run.sent).catch((error: Error): [number, string] => [0, error.message]);
          if (!check(status, text)) run.wrong = `${status} ${text.slice(0, 300)}`;
          else if (++run.answered % every === 0) run.rss.push(rssMiB(pid));
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { answered: run.answered, rss: run.rss, wrong: run.wrong };
}

/**
 * Opens `total` `subscriptions/listen` streams, `inFlight` at once, each closed by the client once acknowledged.
 */
export async function soakListen(
  pid: number,
  url: URL,
  { total, inFlight, every }: { total: number; inFlight: number; every: number },
): Promise<SoakRun> {
  const run = { answered: 0, sent: 0, rss: [] as number[], wrong: null as string | null };
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (run.sent < total && run.wrong === null) {
        try {
          (await listen(url, { resourcesListChanged: true }, ++run.sent)).close();
        } catch (error) {
          run.wrong = (error as Error).message;
          break;
        }
        if (++run.answered % every === 0) run.rss.push(rssMiB(pid));
      }
    }),
  );
  return { answered: run.answered, rss: run.rss, wrong: run.wrong };
}

/**
 * Runs `total` tasks, `inFlight` at once: `start(id)` answers the task's id (or throws), `finished(taskId)` polls it
 * once and answers whether it completed right (true), is still working (null), or went wrong (throws).
 */
export async function soakTasks(
  pid: number,
  start: (id: number) => Promise<string>,
  finished: (taskId: string) => Promise<boolean | null>,
  { total, inFlight, every }: { total: number; inFlight: number; every: number },
): Promise<SoakRun> {
  const run = { answered: 0, sent: 0, rss: [] as number[], wrong: null as string | null };
  const one = async (): Promise<void> => {
    const taskId = await start(++run.sent);
    for (let poll = 0; poll < 500; poll++) {
      if ((await finished(taskId)) === true) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`task ${taskId} did not complete within 500 polls`);
  };
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (run.sent < total && run.wrong === null) {
        try {
          await one();
        } catch (error) {
          run.wrong = (error as Error).message;
          break;
        }
        if (++run.answered % every === 0) run.rss.push(rssMiB(pid));
      }
    }),
  );
  return { answered: run.answered, rss: run.rss, wrong: run.wrong };
}

/** A server on stdio under the soak's heap cap, spoken to with newline-delimited JSON-RPC. */
export interface StdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: () => string;
  /** Sends `message(id)` `total` times, `inFlight` at once; `check` says whether an answer line is right. */
  soak(
    message: (id: number) => string,
    check: (line: string) => boolean,
    options: { total: number; inFlight: number; every: number },
  ): Promise<SoakRun>;
  close(): Promise<void>;
}

/** Starts `entry` on stdio with NODE_OPTIONS capping its heap. */
export function startStdio(entry: string): StdioServer {
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: nodeOptions },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const waiting = new Map<number, (line: string) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const id = /"id":(\d+)/.exec(line)?.[1];
    if (id !== undefined) waiting.get(Number(id))?.(line);
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(`exited with ${code ?? signal}`)),
  );
  const ask = (text: string, id: number): Promise<string> =>
    Promise.race([
      new Promise<string>((resolve) => {
        waiting.set(id, (line) => {
          waiting.delete(id);
          resolve(line);
        });
        child.stdin.write(`${text}\n`);
      }),
      exited,
      new Promise<string>((resolve) => setTimeout(resolve, limits.requestMs, 'no answer').unref()),
    ]);
  return {
    child,
    stderr: () => stderr,
    async soak(message, check, { total, inFlight, every }) {
      const run = { answered: 0, sent: 0, rss: [] as number[], wrong: null as string | null };
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (run.sent < total && run.wrong === null) {
            const id = ++run.sent;
            const line = await ask(message(id), id);
            if (!check(line)) run.wrong = line.slice(0, 300);
            else if (++run.answered % every === 0) run.rss.push(rssMiB(child.pid ?? 0));
          }
        }),
      );
      return { answered: run.answered, rss: run.rss, wrong: run.wrong };
    },
    close: () =>
      new Promise((resolve) => {
        // A server killed by a signal (heap out of memory: SIGABRT) has a signalCode and no exit code.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), limits.exitMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.stdin.end();
      }),
  };
}

/** The growth of the resident set after warm-up: the highest sample after the first `warm` ones, less their last. */
export function growthAfter(rss: readonly number[], warm: number): number {
  const base = rss[warm - 1];
  if (base === undefined || rss.length <= warm) throw new Error(`only ${rss.length} samples, ${warm} for warm-up`);
  return Math.max(...rss.slice(warm)) - base;
}
