/**
 * The project's package.json. A new project gets the whole file; after that it is the user's, but a few of
 * its keys state facts of the manifest and of mcp-gen (what the emitted runtime imports, how the server is
 * built and started, the Node it needs). Those keys are kept in step on every run and nothing else is
 * touched: the user's own scripts, dependencies, key order and every other key stay as they are. A script
 * mcp-gen no longer needs (`start:http` after the HTTP transport is gone) is removed only while it still
 * reads as mcp-gen wrote it, and dependencies are only added or moved to mcp-gen's pin, never removed: a
 * handler of the user's may import them too.
 */
import { generatedPaths } from '../../model/layout.js';
import { usesRedis } from '../../model/store.js';
import type { ServerModel } from '../../model/types.js';
import { stableJson } from '../../util/stable-json.js';
import type { Finding } from '../../diagnostics/index.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';

/** Exact pins of everything the generated project installs. */
export const projectPins = {
  sdkServer: '2.4.0',
  sdkClient: '2.4.0',
  jose: '6.2.17',
  ioredis: '6.0.0',
  // At or below the minor version the host's SDK packages accept (sdk-trace-base 2.12: <1.10.0): the API's global
  // registry serves a copy no newer than the one that registered the SDK.
  otelApi: '1.9.1',
  typescript: '7.0.2',
  typesNode: '20.19.43',
  esbuild: '0.28.2',
  // The MCP Bundle CLI `pack:mcpb` runs from node_modules: packing needs no registry.
  mcpb: '2.1.2',
  // targets: [workers]: wrangler with its workerd (needs Node >= 22.12 to run, not to build the Node server).
  wrangler: '4.164.0',
} as const;

type Json = Record<string, unknown>;

/** The keys mcp-gen owns, with this manifest's values. */
function ownedKeys(model: ServerModel) {
  const dependencies: Record<string, string> = { '@modelcontextprotocol/server': projectPins.sdkServer };
  if (model.auth.type === 'oauth') dependencies.jose = projectPins.jose;
  if (usesRedis(model)) dependencies.ioredis = projectPins.ioredis;
  if (model.telemetry.type === 'opentelemetry') dependencies['@opentelemetry/api'] = projectPins.otelApi;
  const workers = model.targets.includes('workers');
  return {
    scripts: {
      // Building is its own step: `start` is what a host runs, so it starts at once and writes only JSON-RPC.
      build: `tsc -p tsconfig.json && node ${generatedPaths.bundleScript}`,
      dev: `node ${generatedPaths.bundleScript} --watch --`,
      start: 'node dist/server.mjs',
      ...(model.transports.http === null ? {} : { 'start:http': 'node dist/server.mjs --transport http' }),
      // A desktop bundle is a process the host starts: only a stdio server has one.
      ...(model.transports.stdio === null ? {} : { 'pack:mcpb': `npm run build && node ${generatedPaths.packScript}` }),
      // wrangler bundles the Worker itself; extra arguments pass through (`npm run dev:workers -- --port 8788`).
      ...(workers
        ? {
            'dev:workers': 'wrangler dev',
            'build:workers': 'wrangler deploy --dry-run --outdir dist/worker',
            'deploy:workers': 'wrangler deploy',
          }
        : {}),
    } as Record<string, string>,
    dependencies,
    devDependencies: {
      ...(model.transports.stdio === null ? {} : { '@anthropic-ai/mcpb': projectPins.mcpb }),
      '@modelcontextprotocol/client': projectPins.sdkClient,
      '@types/node': projectPins.typesNode,
      esbuild: projectPins.esbuild,
      typescript: projectPins.typescript,
      ...(workers ? { wrangler: projectPins.wrangler } : {}),
    } as Record<string, string>,
  };
}

/**
 * Scripts mcp-gen wrote in earlier versions or for other manifests, by whether a value reads as mcp-gen wrote it:
 * removed when the manifest no longer needs them and the user has not changed them.
 */
const retiredScripts: Readonly<Record<string, (script: string) => boolean>> = {
  'start:http': (script) =>
    script === 'node dist/server.mjs --transport http' ||
    script === 'npm run build && node dist/server.mjs --transport http',
  'pack:mcpb': (script) => script === `npm run build && node ${generatedPaths.packScript}`,
  'dev:workers': (script) => script === 'wrangler dev',
  'build:workers': (script) => script === 'wrangler deploy --dry-run --outdir dist/worker',
  'deploy:workers': (script) => script === 'wrangler deploy',
  // The build step before src/generated/bundle.gen.mjs called esbuild itself.
  bundle: (script) => script.startsWith('esbuild '),
};

/** The whole package.json of a new project. */
function newPackageJson(model: ServerModel, ctx: EmitContext): string {
  const owned = ownedKeys(model);
  const npm = model.registry?.npm ?? null;
  return stableJson({
    // A package published for the MCP registry is named as server.json names it, and is not private.
    name: npm ?? model.server.name,
    version: model.server.version,
    ...(npm === null ? { private: true } : {}),
    ...(model.registry === null ? {} : { mcpName: model.registry.name }),
    type: 'module',
    // What `npx <package>` runs (the bundle starts with a #! line), and all a published package needs.
    bin: { [model.server.name]: 'dist/server.mjs' },
    files: ['dist/server.mjs'],
    engines: { node: '>=20' },
    scripts: {
      ...owned.scripts,
      typecheck: 'tsc -p tsconfig.json --noEmit',
      test: 'tsc -p tsconfig.json && node --test dist/test/*.test.js',
      generate: ctx.regenerateCommand.replace(/^npx /, ''),
    },
    // A starting point's own packages first, so that mcp-gen's pins win where both name one.
    dependencies: { ...ctx.starterDependencies?.dependencies, ...owned.dependencies },
    devDependencies: {
      ...ctx.starterDependencies?.devDependencies,
      ...owned.devDependencies,
      'mcp-gen': ctx.mcpGenDependency ?? `^${ctx.mcpGenVersion}`,
    },
  });
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `existing` as parsed and with mcp-gen's keys in step, or why it is not a JSON object (then it is left alone).
 */
function inStep(model: ServerModel, existing: string): { readonly parsed: Json; readonly next: Json } | string {
  let parsed: unknown;
  try {
    // npm reads a package.json that starts with a byte-order mark (Windows editors write one); so does mcp-gen.
    parsed = JSON.parse(existing.replace(/^\uFEFF/, ''));
  } catch {
    return 'it is not JSON (comments and trailing commas are not JSON either)';
  }
  if (!isObject(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    return `it holds ${kind}, not an object`;
  }
  const owned = ownedKeys(model);
  const next: Json = structuredClone(parsed);
  next.type = 'module';
  // The registry's npm check: the package must name the registry entry it belongs to.
  if (model.registry !== null) next.mcpName = model.registry.name;
  if (next.bin === undefined) next.bin = { [model.server.name]: 'dist/server.mjs' };
  next.engines = { ...(isObject(next.engines) ? next.engines : {}), node: '>=20' };
  const scripts: Json = isObject(next.scripts) ? next.scripts : {};
  for (const [name, ours] of Object.entries(retiredScripts)) {
    if (!(name in owned.scripts) && typeof scripts[name] === 'string' && ours(scripts[name])) delete scripts[name];
  }
  next.scripts = { ...scripts, ...owned.scripts };
  for (const section of ['dependencies', 'devDependencies'] as const) {
    const current: Json = isObject(next[section]) ? next[section] : {};
    next[section] = { ...current, ...owned[section] };
  }
  return { parsed, next };
}

/**
 * package.json as this run leaves it: created whole when missing; otherwise the user's file with mcp-gen's keys
 * in step (`user-edit`, every other byte of meaning kept), or kept as it is when they already are. One that is
 * not a JSON object is kept as it is too, with a warning: npm cannot read it, and its keys no longer follow.
 */
export function emitPackageJson(
  model: ServerModel,
  ctx: EmitContext,
  existing: string | null,
  path: string,
): { readonly file: GeneratedFile; readonly findings: readonly Finding[] } {
  const kept = { file: { path, contents: newPackageJson(model, ctx), ownership: 'scaffold' as const }, findings: [] };
  if (existing === null) return kept;
  const merged = inStep(model, existing);
  if (typeof merged === 'string') {
    const finding: Finding = {
      code: 'package-json-unreadable',
      message: `${path} is kept as it is, and the keys mcp-gen owns in it do not follow the manifest: ${merged}`,
      hint: 'make it one JSON object again (as npm init writes it), then run generate again',
      at: { projectFile: path, line: 1, col: 1 },
    };
    return { ...kept, findings: [finding] };
  }
  if (JSON.stringify(merged.next) === JSON.stringify(merged.parsed)) return kept;
  return { file: { path, contents: laidOutAs(existing, merged.next), ownership: 'user-edit' }, findings: [] };
}

/**
 * `data` as JSON laid out as the user's `text` is, as npm keeps it when it edits the file: the keys in the
 * user's order, and the same byte-order mark, indentation (the first member's, two spaces when there is none),
 * line breaks (CRLF or LF) and final line break (or none).
 */
function laidOutAs(text: string, data: Json): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const first = /^\s*\{(\r?\n)+([ \t]*)/.exec(body);
  const newline = first?.[1] ?? (body.includes('\r\n') ? '\r\n' : '\n');
  const indent = first?.[2] || '  ';
  const end = /\r?\n$/.test(body) ? newline : '';
  // JSON.stringify escapes a line break inside a string, so every one it writes is between members.
  return `${bom}${JSON.stringify(data, null, indent).replace(/\n/g, newline)}${end}`;
}
