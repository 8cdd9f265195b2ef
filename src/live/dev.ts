/**
 * The build-and-serve half of `mcp-gen dev`: typecheck the project (tsc, incremental) while bundling it from its
 * sources into dist/dev/ (the project's bundler from src/generated/bundle.gen.mjs, kept open between builds), and
 * restart the server over HTTP behind a fixed loopback port (dev-proxy.ts) with no gap: the new server starts beside
 * the last one, which stops once the new one answers. A build that fails prints its type errors once, as
 * `file:line:col: error [TSxxxx] message`, and leaves the last good server running. One build at a time: a save
 * during a build starts one more after it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generatedPaths } from '../model/layout.js';
import type { DevProxy } from './dev-proxy.js';

export interface DevOptions {
  readonly project: string;
  /** The fixed loopback address (live/dev-proxy.ts); the caller opens and closes it. */
  readonly proxy: DevProxy;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** After each build: the URL of the server that answers now, and the build's type errors (none when it is new). */
  readonly onBuilt?: (serverUrl: string, typeErrors: readonly string[]) => void;
  /** The state of the sources now (load/watch.ts `stampSources`): a build is skipped when it equals the last. */
  readonly stamp?: () => string;
  /** Each line the server writes on stderr. */
  readonly onLog?: (line: string) => void;
}

/** Where dev builds, inside the project's dist/ and apart from dist/server.mjs, which `npm run build` writes. */
export const devPaths = {
  dist: 'dist/dev',
  server: 'dist/dev/server.mjs',
  buildInfo: 'dist/dev/tsbuildinfo.json',
} as const;

/** How long a new server may take to say it listens before the loop goes on without it. */
const readyMs = 30_000;

/** tsc's `file(line,col): error TSnnnn: message` lines as `file:line:col: error [TSnnnn] message`. */
export function formatTscOutput(output: string): string[] {
  const errors: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (match !== null) errors.push(`${match[1]}:${match[2]}:${match[3]}: error [${match[4]}] ${match[5]}`);
    else if (/^\s+\S/.test(line) && errors.length > 0) errors[errors.length - 1] += `\n${line}`;
  }
  return errors;
}

function run(command: string, args: readonly string[], cwd: string, env: DevOptions['env']) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, [...args], { cwd, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', (error) => resolve({ code: null, output: error.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function stopChild(child: ChildProcess | null): Promise<void> {
  if (child === null || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** What bundle.gen.mjs's `openSourceBundler` returns: `rebuild` resolves with its messages, empty when it worked. */
interface SourceBundler {
  readonly rebuild: () => Promise<string>;
  readonly dispose: () => Promise<void>;
}

/** A server started from a new bundle, not yet serving. */
interface Launched {
  readonly server: ChildProcess;
  readonly listening: Promise<URL | null>;
  /** What it wrote on stderr before it was adopted; null once it is (then its lines are shown as they come). */
  held: string[] | null;
}

export class DevLoop {
  private server: ChildProcess | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private lastErrors = '';
  private lastStamp: string | null = null;
  private stopped = false;

  constructor(private readonly options: DevOptions) {}

  /** Builds now, or once more after the build under way. */
  build(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const stamp = this.options.stamp?.() ?? null;
        if (stamp !== null && stamp === this.lastStamp) continue;
        this.lastStamp = stamp;
        await this.once();
      } while (this.again && !this.stopped);
      this.running = null;
    })();
    return this.running;
  }

  private async once(): Promise<void> {
    const { project, env, out, err } = this.options;
    const time = () => new Date().toTimeString().slice(0, 8);
    let tsc: string;
    try {
      // The package exports no bin/ path, so the launcher is found next to its package.json.
      const manifest = createRequire(path.join(project, 'package.json')).resolve('typescript/package.json');
      tsc = path.join(path.dirname(manifest), 'bin', 'tsc');
    } catch {
      err('mcp-gen dev: TypeScript is not installed in the project; run npm install\n');
      return;
    }
    // The typecheck (incremental: a handler save re-checks what it touched) and the bundle (from the sources, into a
    // folder of dev's own, so a bundle that fails its typecheck never replaces dist/server.mjs) run side by side.
    // The new server starts as soon as its bundle exists, while the typecheck goes on: it takes requests only once
    // the typecheck passes, and is stopped unheard when it fails.
    const check = ['-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', devPaths.buildInfo];
    const compiling = run(process.execPath, [tsc, ...check, '--pretty', 'false'], project, env);
    const bundler = await this.openBundler();
    const bundling =
      bundler === null
        ? run(process.execPath, [generatedPaths.bundleScript, '--source', '--dist', devPaths.dist], project, env)
        : bundler.rebuild().then((output) => ({ code: output === '' ? 0 : 1, output: `${output}\n` }));
    const [compiled, bundled, launched] = await Promise.all([
      compiling,
      bundling,
      bundling.then((bundle) => (bundle.code === 0 && !this.stopped ? this.launch() : null)),
    ]);
    if (this.stopped || compiled.code !== 0) await this.discard(launched);
    if (this.stopped) return;
    if (compiled.code !== 0) {
      const errors = formatTscOutput(compiled.output);
      const text = errors.length > 0 ? `${errors.join('\n')}\n` : compiled.output;
      if (text === this.lastErrors)
        out(`${time()} typecheck: the same ${errors.length} error(s); the last good server keeps running\n`);
      else {
        err(text);
        out(`${time()} typecheck: ${errors.length} error(s); the last good server keeps running\n`);
      }
      this.lastErrors = text;
      this.options.onBuilt?.(this.serverUrl, errors);
      return;
    }
    this.lastErrors = '';
    if (bundled.code !== 0 || launched === null) {
      err(bundled.output);
      out(`${time()} bundle failed; the last good server keeps running\n`);
      return;
    }
    if (!(await this.adopt(launched))) return;
    out(`${time()} built; server restarted\n`);
    this.options.onBuilt?.(this.serverUrl, []);
  }

  private bundler: Promise<SourceBundler | null> | null = null;

  /**
   * The project's own bundler, kept open between builds so that a save rebuilds only what changed (bundle.gen.mjs
   * exports it); null for a project generated before it did, which is bundled by running the script each time. A
   * bundle script that a later mcp-gen regenerates is read again when dev starts again.
   */
  private openBundler(): Promise<SourceBundler | null> {
    const script = pathToFileURL(path.join(this.options.project, generatedPaths.bundleScript)).href;
    this.bundler ??= import(script)
      .then(
        (module: { openSourceBundler?: (dist: string, project: string) => Promise<SourceBundler> }) =>
          module.openSourceBundler?.(devPaths.dist, this.options.project) ?? null,
      )
      .catch(() => null);
    return this.bundler;
  }

  /** The URL clients use: the proxy's origin and the path the server serves MCP on. */
  private serverUrl = '';
  /** The server started by the restart under way, until it listens or gives up. */
  private starting: ChildProcess | null = null;
  /** Servers replaced by a newer one, until they have drained and exited. */
  private readonly retiring = new Set<Promise<void>>();

  /** Starts the new server on a port of its own, beside the last one; `listening` says where, or null if it fails. */
  private launch(): Launched {
    const { project, env, err, proxy } = this.options;
    const say = (line: string) => {
      err(`${line}\n`);
      this.options.onLog?.(line);
    };
    // Approval links and the page's own Origin rule must name the address the browser uses, not the inner port.
    const serverEnv = { ...env, MCP_GEN_APPROVAL_ORIGIN: env.MCP_GEN_APPROVAL_ORIGIN ?? proxy.origin };
    const args = [devPaths.server, '--transport', 'http', '--host', '127.0.0.1', '--port', '0'];
    const server = spawn(process.execPath, args, {
      cwd: project,
      env: serverEnv as NodeJS.ProcessEnv,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    this.starting = server;
    let ready: (url: URL | null) => void = () => undefined;
    const listening = new Promise<URL | null>((resolve) => (ready = resolve));
    const timer = setTimeout(() => ready(null), readyMs);
    server.once('exit', () => ready(null));
    server.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split(/\r?\n/)) {
        const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
        if (url !== undefined && URL.canParse(url)) {
          clearTimeout(timer);
          ready(new URL(url));
        } else if (line !== '' && !this.stopping.has(server)) {
          // Held until the server is adopted: one whose typecheck fails is stopped without a word.
          if (launched.held === null) say(line);
          else launched.held.push(line);
        }
      }
    });
    const launched: Launched = { server, listening: listening.finally(() => clearTimeout(timer)), held: [] };
    return launched;
  }

  /** Stops a launched server that will not serve (its build failed its typecheck, or dev stops). */
  private async discard(launched: Launched | null): Promise<void> {
    if (launched === null) return;
    this.stopping.add(launched.server);
    if (this.starting === launched.server) this.starting = null;
    await stopChild(launched.server);
  }

  /**
   * Points the proxy at the launched server once it listens, then stops the last one (which finishes what it
   * took). A server that exits or stays silent leaves the last one on.
   */
  private async adopt(launched: Launched): Promise<boolean> {
    const { out, err, proxy } = this.options;
    const url = await launched.listening;
    for (const line of launched.held ?? []) {
      err(`${line}\n`);
      this.options.onLog?.(line);
    }
    launched.held = null;
    if (url === null || this.stopped) {
      await this.discard(launched);
      const last = this.server === null ? 'no server is running yet' : 'the last good server keeps running';
      if (!this.stopped) err(`mcp-gen dev: the new server did not start; ${last}\n`);
      return false;
    }
    this.starting = null;
    proxy.target(Number(url.port));
    const previous = this.server;
    this.server = launched.server;
    this.serverUrl = `${proxy.origin}${url.pathname}`;
    if (!this.announced) out(`server: ${this.serverUrl}\n`);
    this.announced = true;
    // The last server finishes what it took in the background: the next build need not wait for its drain.
    if (previous !== null) {
      this.stopping.add(previous);
      const retired = stopChild(previous).finally(() => this.retiring.delete(retired));
      this.retiring.add(retired);
    }
    return true;
  }

  private announced = false;
  /** Servers this loop is stopping: what they say while they stop is not news. */
  private readonly stopping = new WeakSet<ChildProcess>();

  /** Stops the build under way's result from being used, and the server. */
  async stop(): Promise<void> {
    this.stopped = true;
    const children = [this.server, this.starting].filter((child) => child !== null);
    for (const child of children) this.stopping.add(child);
    await Promise.all([...children.map(stopChild), ...this.retiring]);
    await (await this.bundler)?.dispose();
  }
}
