/**
 * The layout of a generated project: every output path, relative to the
 * project root with forward slashes, is decided here and nowhere else. load
 * reads handlers and the marker from these paths, normalize and plan name
 * handler files with them, emitters place their files with them, and write
 * removes stale files only where this module says generated files live.
 */
import path from 'node:path';
import { fileStem } from './naming.js';

/** The manifest's usual name, at the project root: the default of every command and what `init` writes. */
export const manifestFile = 'mcp.yaml';

/** The project's TypeScript sources: handlers, `main.ts`, the user's own modules and the generated folder. */
export const sourceDir = 'src';

/** The folder mcp-gen owns: everything in it is rewritten on every run. */
export const generatedDir = `${sourceDir}/generated`;

/** The list of files the last run generated; stale-file cleanup trusts only files listed there. */
export const markerPath = `${generatedDir}/.mcp-gen`;

/**
 * The one folder, relative to the output folder, where a run stages new
 * contents, keeps backups and writes its journal. A run changes nothing else
 * except the planned paths; the folder is gone when a run ends, whatever way
 * it ends (the next run removes what a killed one left).
 */
export const pendingFolder = '.mcp-gen-pending';

/**
 * Relative to the output folder: the lock a writing run holds from before it reads the project until
 * its commit, holding its process id, so that two runs never plan and write the same folder at once.
 */
export const lockName = '.mcp-gen-lock';

/** The generated modules built from the model. */
export const generatedPaths = {
  /** The one module handlers import from: types, errors, results, context and handle types. */
  facade: `${generatedDir}/index.gen.ts`,
  types: `${generatedDir}/types.gen.ts`,
  registry: `${generatedDir}/registry.gen.ts`,
  registryJson: `${generatedDir}/registry.gen.json`,
  server: `${generatedDir}/server.gen.ts`,
  /** The handlers of tools bound to an upstream request (`http:`), written only when some tool is. */
  bindings: `${generatedDir}/bindings.gen.ts`,
  /** Every tool's validators, compiled to code when the project is generated. */
  validators: `${generatedDir}/validators.gen.ts`,
  /** What the project's bundle uses in place of the SDK's Node shim: ajv loads on first use. */
  bundleShims: `${generatedDir}/bundle-shims.gen.ts`,
  /** The project's build step after tsc: bundles the server with the SDK into `dist/server.mjs`. */
  bundleScript: `${generatedDir}/bundle.gen.mjs`,
  /** A stdio server's MCP Bundle manifest (manifest.json), derived from the manifest. */
  mcpbManifest: `${generatedDir}/mcpb-manifest.gen.json`,
  /** `npm run pack:mcpb` after the build: stages the bundle and packs it with the MCPB CLI. */
  packScript: `${generatedDir}/pack-mcpb.gen.mjs`,
  /** `targets: [workers]`: the Worker's entry, the facade's fetch handler and the state store's Durable Object. */
  worker: `${generatedDir}/worker.gen.ts`,
  /** The runtime module whose `main` the facade hands to the project's `src/main.ts`. */
  start: `${generatedDir}/runtime/start.gen.ts`,
  contractPlan: 'test/contract-plan.gen.ts',
  /** The MCP registry record, written only when the manifest names a registry entry. */
  serverJson: 'server.json',
  /** Every environment variable the server reads, with defaults shown and secrets empty: a template to copy. */
  envExample: '.env.example',
} as const;

/** `runtime/start.gen.ts` (a runtime template) -> `src/generated/runtime/start.gen.ts`. */
export function runtimePath(template: string): string {
  return `${generatedDir}/${template}`;
}

/** `tests/contract.gen.test.ts` (a test template) -> `test/contract.gen.test.ts`. */
export function contractTestPath(template: string): string {
  return `test/${template.replace(/^tests\//, '')}`;
}

/**
 * Whether a path is one where generated files live: the generated folder, `server.json`, `.env.example` and
 * the generated test files (`test/*.gen.ts`, `test/*.gen.test.ts`). Stale-file
 * cleanup removes a file the previous marker lists only in these places.
 */
export function isGeneratedLocation(file: string): boolean {
  // The two generated files at the root: cleanup still removes them only with a banner, which neither has.
  if (file === generatedPaths.serverJson || file === generatedPaths.envExample) return true;
  return file.startsWith(`${generatedDir}/`) || /^test\/[^/]+\.gen(\.test)?\.ts$/.test(file);
}

/** Folders of the user's handler files, by kind. */
export const handlerDirs = {
  tool: 'src/handlers/tools',
  resource: 'src/handlers/resources',
  prompt: 'src/handlers/prompts',
  resourceList: 'src/handlers/resource-lists',
  resourceComplete: 'src/handlers/completions/resources',
  promptComplete: 'src/handlers/completions/prompts',
} as const;

/** The kinds of handler a manifest entry can have. */
export type HandlerKind = keyof typeof handlerDirs;

/**
 * `src/handlers/tools/search_notes.ts` for tool `search_notes`, `src/handlers/tools/print-env.ts` for tool
 * `printEnv`.
 */
export function handlerPath(kind: HandlerKind, name: string): string {
  return `${handlerDirs[kind]}/${fileStem(name)}.ts`;
}

/** Project files written once, when missing, and the user's from then on. */
export const scaffoldPaths = {
  gitignore: '.gitignore',
  readme: 'README.md',
  packageJson: 'package.json',
  tsconfig: 'tsconfig.json',
  main: 'src/main.ts',
  /** The user's start-up and shutdown hooks: `setup(config, tools)` and `teardown(services)`. */
  setup: 'src/setup.ts',
  /** `targets: [workers]`: the Worker's wrangler configuration (routes, account and bindings are the user's). */
  wrangler: 'wrangler.jsonc',
} as const;

/** The design report's file name. */
export const designFile = 'DESIGN.md';

/** The JSON form of the report, which `mcp-gen report --format json` writes. */
export const designJsonFile = 'DESIGN.json';

/** DESIGN.md sits next to the manifest, or at the project root when the manifest lives outside it. */
export function designPath(manifestFromOut: string): string {
  return besideManifest(manifestFromOut, designFile);
}

/** DESIGN.json, in the same place as DESIGN.md. */
export function designJsonPath(manifestFromOut: string): string {
  return besideManifest(manifestFromOut, designJsonFile);
}

function besideManifest(manifestFromOut: string, name: string): string {
  const dir = path.posix.dirname(manifestFromOut);
  return dir === '.' || dir.startsWith('..') ? name : `${dir}/${name}`;
}

/** The ESM specifier with which the module at `from` imports the module at `to` (both project paths). */
export function moduleSpecifier(from: string, to: string): string {
  const relative = path.posix.relative(path.posix.dirname(from), to).replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
