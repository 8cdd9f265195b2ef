/**
 * Project files written once and then owned by the user: package.json,
 * tsconfig.json, .gitignore, README.md and src/main.ts.
 */
import { manifestDefaults, protocolVersion } from '../../model/defaults.js';
import { generatedPaths, lockName, moduleSpecifier, pendingFolder, scaffoldPaths } from '../../model/layout.js';
import { usesRedis } from '../../model/store.js';
import type { ServerModel } from '../../model/types.js';
import { stableJson } from '../../util/stable-json.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { renderTemplate } from '../shared/handlebars.js';
import { finalText, importDeclaration } from '../shared/ts-text.js';
import { hostsView } from './hosts.js';

/** Exact pins of everything the generated project installs. */
export const projectPins = {
  sdkServer: '2.4.0',
  sdkClient: '2.4.0',
  jose: '6.2.17',
  ioredis: '6.0.0',
  typescript: '7.0.2',
  typesNode: '20.19.43',
  esbuild: '0.28.2',
} as const;

/** Where `tsc` writes the compiled bundle shims (src/generated/bundle-shims.gen.ts). */
const compiledShims = generatedPaths.bundleShims.replace(/^src\//, 'dist/src/').replace(/\.ts$/, '.js');

/**
 * The arguments of the project's `bundle` script: the compiled server and everything it imports (the SDK included) in
 * one file, `dist/server.mjs`, which `start` runs. Node then resolves, reads and links one module instead of about
 * fifty, which makes a stdio session start sooner (docs/benchmarks.md); `node dist/src/main.js`, the plain `tsc`
 * output, still works.
 */
export const bundleArgs = [
  'dist/src/main.js',
  '--bundle',
  '--platform=node',
  '--format=esm',
  '--target=node20',
  // The SDK's Node shim loads ajv at start-up; this one loads it on first use (src/generated/bundle-shims.gen.ts).
  `--alias:@modelcontextprotocol/server/_shims=./${compiledShims}`,
  '--outfile=dist/server.mjs',
  '--log-level=warning',
] as const;

function packageJson(model: ServerModel, ctx: EmitContext): string {
  const dependencies: Record<string, string> = { '@modelcontextprotocol/server': projectPins.sdkServer };
  if (model.auth.type === 'oauth') dependencies.jose = projectPins.jose;
  if (usesRedis(model)) dependencies.ioredis = projectPins.ioredis;
  return stableJson({
    name: model.server.name,
    version: model.server.version,
    private: true,
    type: 'module',
    engines: { node: '>=20' },
    scripts: {
      build: 'tsc -p tsconfig.json && npm run bundle',
      bundle: `esbuild ${bundleArgs.join(' ')}`,
      start: 'npm run build && node dist/server.mjs',
      ...(model.transports.http === null
        ? {}
        : { 'start:http': 'npm run build && node dist/server.mjs --transport http' }),
      typecheck: 'tsc -p tsconfig.json --noEmit',
      test: 'tsc -p tsconfig.json && node --test dist/test/*.test.js',
      generate: ctx.regenerateCommand.replace(/^npx /, ''),
    },
    dependencies,
    devDependencies: {
      '@modelcontextprotocol/client': projectPins.sdkClient,
      '@types/node': projectPins.typesNode,
      esbuild: projectPins.esbuild,
      'mcp-gen': ctx.mcpGenDependency ?? `^${ctx.mcpGenVersion}`,
      typescript: projectPins.typescript,
    },
  });
}

const tsconfig = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    rootDir: '.',
    outDir: 'dist',
  },
  include: ['src', 'test'],
};

function mainTs(): string {
  const imports = [
    importDeclaration(['main'], moduleSpecifier(scaffoldPaths.main, generatedPaths.start)),
    importDeclaration(['definition'], moduleSpecifier(scaffoldPaths.main, generatedPaths.server)),
  ];
  const comment =
    '// Starts the server: `--transport stdio|http`, `--host`, `--port`. ' +
    'Add process-wide setup (tracing, config) above.';
  return finalText(`${imports.join('\n')}\n\n${comment}\nmain(definition);`);
}

/** The scaffold files of a new project. */
export function emitScaffold(model: ServerModel, ctx: EmitContext): GeneratedFile[] {
  const http = model.transports.http;
  const secrets = [
    ...(model.handles.length === 0
      ? []
      : [
          {
            name: model.secrets.handleKeyEnv,
            what:
              'signs state handles (at least 32 bytes; the same on every instance). ' +
              'Without it a loopback or stdio server uses an ephemeral key.',
          },
        ]),
    ...(model.tools.some((t) => t.approval === 'confirm')
      ? [
          {
            name: model.secrets.requestStateKeyEnv,
            what: 'signs approval state of destructive tools (at least 32 bytes; the same on every instance).',
          },
        ]
      : []),
    ...(model.auth.type === 'bearer'
      ? [{ name: model.auth.tokensEnv, what: 'bearer tokens: `token=principal:scope,scope;token2=...`' }]
      : []),
    ...(usesRedis(model) && model.store.type === 'redis'
      ? [
          {
            name: model.store.urlEnv,
            what:
              'the Redis URL of the state store (used approvals, idempotency keys), ' +
              'the same for every instance; see docs/deployment.md in mcp-gen.',
          },
        ]
      : []),
  ];
  const readme = renderTemplate(ctx, 'scaffold/README.md.hbs', {
    title: model.server.title ?? model.server.name,
    description: model.server.description ?? '',
    manifest: ctx.manifestPath,
    protocolVersion,
    httpHost: http?.host ?? manifestDefaults.httpHost,
    httpPort: http?.port ?? manifestDefaults.httpPort,
    httpPath: http?.path ?? manifestDefaults.httpPath,
    secrets,
    hasHttp: http !== null,
    // start:http refuses to start without the tokens, so the README says so before its command.
    httpTokensEnv: http !== null && model.auth.type === 'bearer' ? model.auth.tokensEnv : '',
    httpTokenScopes: model.auth.scopes.map((s) => s.name).join(','),
    hasSecrets: secrets.length > 0,
    hosts: hostsView(model),
  });
  return [
    // A run's pending folder and lock are never committed: a checkout carrying them is not trusted (write/trust.ts).
    {
      path: scaffoldPaths.gitignore,
      contents: `node_modules/\ndist/\n${pendingFolder}/\n${lockName}\n`,
      ownership: 'scaffold',
    },
    { path: scaffoldPaths.readme, contents: finalText(readme), ownership: 'scaffold' },
    { path: scaffoldPaths.packageJson, contents: packageJson(model, ctx), ownership: 'scaffold' },
    { path: scaffoldPaths.tsconfig, contents: stableJson(tsconfig), ownership: 'scaffold' },
    { path: scaffoldPaths.main, contents: mainTs(), ownership: 'scaffold' },
  ];
}
