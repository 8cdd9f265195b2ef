/**
 * Emits what `targets: [workers]` adds: `src/generated/worker.gen.ts`, the Worker's entry (every request to the
 * facade's fetch handler, with the Worker's env and execution context; the state store's Durable Object class), and
 * `wrangler.jsonc`, written once and then the user's (routes, account, extra bindings are theirs to add). The scripts
 * and the wrangler pin are package.json's owned keys (scaffold/package-json.ts).
 */
import { generatedPaths, moduleSpecifier, runtimePath, scaffoldPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { tsBanner } from '../shared/banner.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { finalText, importDeclaration } from '../shared/ts-text.js';

/** The Workers runtime date the generated configuration asks for: the wrangler pin's workerd supports it. */
export const workersCompatibilityDate = '2026-11-01';

/** The binding and class of the state store's Durable Object (store-durable.gen.ts). */
export const stateBinding = { name: 'MCP_GEN_STATE', className: 'McpGenState' } as const;

const workerPath = generatedPaths.worker;

function workerEntry(ctx: EmitContext): string {
  const from = (file: string): string => moduleSpecifier(workerPath, file);
  const imports = [
    importDeclaration(['fetch'], from(generatedPaths.facade)),
    importDeclaration(['WorkerContext'], from(runtimePath('runtime/http-fetch.gen.ts')), true),
  ];
  const body = [
    `export { ${stateBinding.className} } from '${from(runtimePath('runtime/state-object.gen.ts'))}';`,
    '',
    '/**',
    " * The Cloudflare Worker: each request goes to the server's fetch handler with the Worker's env (vars, secrets,",
    ' * bindings) and its context, which keeps the isolate until the tasks started by the request have settled.',
    ' */',
    'export default {',
    '  fetch: (request: Request, env: Readonly<Record<string, unknown>>, context: WorkerContext): Promise<Response> =>',
    '    fetch(request, env, context),',
    '};',
  ];
  return finalText(`${tsBanner(ctx)}\n${imports.join('\n')}\n\n${body.join('\n')}`);
}

/** wrangler.jsonc: JSON with comments, as wrangler documents it; the comments say what mcp-gen decided. */
function wranglerConfig(model: ServerModel): string {
  const vars: Record<string, string> = { MCP_GEN_HOSTS: '' };
  for (const variable of model.config)
    if (!variable.secret && variable.default !== null) vars[variable.name] = String(variable.default);
  const json = (value: unknown): string => JSON.stringify(value);
  const lines = [
    `// Cloudflare Workers configuration of ${model.server.name}, written once by mcp-gen (targets: [workers]) and`,
    '// yours from then on. Local: `npm run dev:workers` (wrangler dev, Node >= 22.12).',
    '// Deploy: `npm run deploy:workers`.',
    '{',
    `  "$schema": "node_modules/wrangler/config-schema.json",`,
    `  "name": ${json(model.server.name)},`,
    `  "main": ${json(workerPath)},`,
    `  "compatibility_date": ${json(workersCompatibilityDate)},`,
    '  // The runtime uses Buffer, node:crypto and process.env, which nodejs_compat provides.',
    '  "compatibility_flags": ["nodejs_compat"],',
    '  // The state store (approvals, idempotency keys, tasks): a Durable Object per key, once across isolates.',
    `  "durable_objects": { "bindings": [${json({ name: stateBinding.name, class_name: stateBinding.className })}] },`,
    `  "migrations": [{ "tag": "v1", "new_sqlite_classes": [${json(stateBinding.className)}] }],`,
    '  // MCP_GEN_HOSTS: the host names the Worker answers on (e.g. name.account.workers.dev), comma separated; set it',
    '  // before deploying. Secrets are not vars: `npx wrangler secret put NAME` (README, "Cloudflare Workers").',
    `  "vars": ${json(vars)}`,
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

/** The files `targets: [workers]` adds, or none. */
export function emitWorkers(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  if (!model.targets.includes('workers')) return [];
  return [
    { path: workerPath, contents: workerEntry(ctx), ownership: 'generated' },
    { path: scaffoldPaths.wrangler, contents: wranglerConfig(model), ownership: 'scaffold' },
  ];
}
