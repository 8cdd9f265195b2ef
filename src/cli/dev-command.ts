/**
 * `mcp-gen dev [manifest]`: one process for the inner loop. A manifest save
 * regenerates (the `generate --watch` loop), then builds; a save of any other
 * TypeScript file under src/ only builds; every good build restarts the server
 * over HTTP on 127.0.0.1:<port> (live/dev.ts). Ctrl-C stops all of it.
 */
import path from 'node:path';
import { resolveOptions } from '../config/index.js';
import type { Paint } from '../diagnostics/index.js';
import { DevLoop } from '../live/dev.js';
import { watchSources } from '../load/index.js';
import { runGenerateWatch } from './generate-command.js';
import type { CliIo } from './io.js';

export async function runDev(manifest: string, port: string, io: CliIo, paint: Paint): Promise<number> {
  const number = Number(port);
  if (!Number.isInteger(number) || number < 1 || number > 65535) {
    io.stderr(`mcp-gen: error: --port must be a port number from 1 to 65535, got "${port}"\n`);
    return 1;
  }
  const project = resolveOptions({ manifest }, io.cwd).outDir;
  const loop = new DevLoop({ project, port: number, env: io.env, out: io.stdout, err: io.stderr });
  const src = path.join(project, 'src');
  // Generated files change only through a manifest save, which builds after generating.
  const watcher = watchSources(src, path.join(src, 'generated'), () => void loop.build());
  try {
    return await runGenerateWatch({ manifest }, io, paint, async (written) => {
      if (written) await loop.build();
    });
  } finally {
    watcher.close();
    await loop.stop();
  }
}
