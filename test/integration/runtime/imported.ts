import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { withFileParts } from '../../../src/emit/bindings/file-parts.js';
import { importOpenApi } from '../../../src/import.js';
import { runPipeline } from '../../../src/pipeline.js';
import type { HttpBindingSpec } from '../../../templates/runtime/upstream.gen.js';
import { repoRoot } from '../../support/golden.js';
import { recordingUpstream, type Seen } from './recorder.js';

/**
 * The binding of tool `name` as generated from `document` (imported in `dir`, then normalized), its input schema,
 * and what the import said.
 */
export async function generated(dir: string, document: Record<string, unknown>, name: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(document));
  const imported = await importOpenApi('spec.json', { out: 'mcp.yaml', force: true, cwd: dir });
  const result = await runPipeline({ manifest: path.join(dir, 'mcp.yaml'), cwd: dir }, 'normalize');
  const tool = result.model?.tools.find((t) => t.name === name);
  if (tool?.http == null) throw new Error(`no bound tool: ${JSON.stringify(result.diagnostics)}`);
  const b: HttpBindingSpec = {
    tool: tool.name,
    method: tool.http.method,
    path: tool.http.path,
    args: tool.http.args,
    body: tool.http.body,
    encoding: withFileParts(tool, tool.http.encoding),
    result: 'body',
    errorMessage: null,
    structured: false,
  };
  return { binding: b, input: tool.input, imported };
}

/**
 * A recording upstream on 127.0.0.1 for one test file, answering `{"ok":true}`, with a `.test-out/<name>` folder to
 * import into: started (its URL in `config[variable]`) before the file's tests, closed and removed after them.
 */
export function importedUpstream(name: string, variable: string) {
  const out = path.join(repoRoot, '.test-out', name);
  const seen: Seen[] = [];
  const config: Record<string, unknown> = {};
  let server: Server | undefined;
  beforeAll(async () => {
    let base: string;
    ({ server, base } = await recordingUpstream(seen, (_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }));
    config[variable] = base;
    rmSync(out, { recursive: true, force: true });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(out, { recursive: true, force: true });
  });
  return { out, seen, config };
}
