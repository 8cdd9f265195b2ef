/**
 * `mcp-gen dev [manifest]`: one process for the inner loop. A manifest save
 * regenerates (the `generate --watch` loop), then builds; a save of any other
 * TypeScript file under src/ only builds; every good build restarts the server
 * over HTTP on 127.0.0.1:<port> (live/dev.ts). The console (live/console/)
 * shows the server, the review and every tool as a form, and follows each
 * build. Ctrl-C stops all of it.
 */
import path from 'node:path';
import { resolveOptions } from '../config/index.js';
import type { Paint } from '../diagnostics/index.js';
import { startDevConsole, type DevConsole } from '../live/console/index.js';
import { DevLoop } from '../live/dev.js';
import { type DevProxy, startDevProxy } from '../live/dev-proxy.js';
import { stampSources, watchSources } from '../load/index.js';
import { runGenerateWatch } from './generate-command.js';
import type { CliIo } from './io.js';

export interface DevFlags {
  readonly port: string;
  /** The console's port (`0`: any free one), null for the default, or false for no console. */
  readonly console: string | null | false;
}

const defaultConsolePort = 3100;

function portOf(text: string, flag: string, io: CliIo, least: number): number | null {
  const number = Number(text);
  if (Number.isInteger(number) && number >= least && number <= 65535) return number;
  io.stderr(`mcp-gen: error: ${flag} must be a port number from ${least} to 65535, got "${text}"\n`);
  return null;
}

export async function runDev(manifest: string, flags: DevFlags, io: CliIo, paint: Paint): Promise<number> {
  const port = portOf(flags.port, '--port', io, 1);
  if (port === null) return 1;
  const consolePort =
    flags.console === false || flags.console === null ? null : portOf(flags.console, '--console-port', io, 0);
  if (consolePort === null && typeof flags.console === 'string') return 1;
  const project = resolveOptions({ manifest }, io.cwd).outDir;
  let proxy: DevProxy;
  try {
    proxy = await startDevProxy(port);
  } catch (error) {
    io.stderr(`mcp-gen: error: the server cannot listen on 127.0.0.1:${port}: ${(error as Error).message}\n`);
    return 1;
  }
  let devConsole: DevConsole | null = null;
  if (flags.console !== false) {
    const start = (on: number) => startDevConsole({ port: on, manifest, cwd: io.cwd, env: io.env });
    try {
      // The default port when it is free, else any free port: a console is worth more than its usual address.
      if (consolePort !== null) devConsole = await start(consolePort);
      else if (port === defaultConsolePort) devConsole = await start(0);
      else devConsole = await start(defaultConsolePort).catch(() => start(0));
    } catch (error) {
      io.stderr(`mcp-gen: error: the console cannot listen on 127.0.0.1:${consolePort}: ${(error as Error).message}\n`);
      await proxy.close();
      return 1;
    }
    io.stdout(`console: ${devConsole.url}\n`);
  }
  const loop = new DevLoop({
    project,
    proxy,
    stamp: () => stampSources(path.join(project, 'src')),
    env: io.env,
    out: io.stdout,
    err: io.stderr,
    ...(devConsole === null ? {} : { onBuilt: devConsole.built, onLog: devConsole.log }),
  });
  const src = path.join(project, 'src');
  // Generated files change only through a manifest save, which builds after generating.
  const watcher = watchSources(src, path.join(src, 'generated'), () => void loop.build());
  try {
    return await runGenerateWatch({ manifest, command: 'dev' }, io, paint, async (written) => {
      // A run may have written src/ or a handler folder the watcher has not seen yet (a project's first run).
      watcher.refresh();
      if (written) await loop.build();
    });
  } finally {
    watcher.close();
    await loop.stop();
    await devConsole?.close();
    await proxy.close();
  }
}
