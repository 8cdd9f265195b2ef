/**
 * Project files written once and then owned by the user: package.json,
 * tsconfig.json, .gitignore, README.md, src/main.ts and src/setup.ts. In two of them mcp-gen keeps
 * its facts in step on every run: package.json's owned keys (package-json.ts) and README.md's marked part
 * (readme.ts).
 */
import { manifestDefaults, protocolVersion } from '../../model/defaults.js';
import { environmentVariables } from '../../model/environment.js';
import { generatedPaths, lockName, moduleSpecifier, pendingFolder, scaffoldPaths } from '../../model/layout.js';
import type { ServerModel } from '../../model/types.js';
import { stableJson } from '../../util/stable-json.js';
import type { Finding } from '../../diagnostics/index.js';
import type { EmitContext, GeneratedFile } from '../shared/files.js';
import { environmentTable } from '../shared/environment.js';
import { renderTemplate } from '../shared/handlebars.js';
import { code, fenceFor, inline, paragraphs, table } from '../shared/markdown.js';
import { finalText, importDeclaration } from '../shared/ts-text.js';
import { hostsView } from './hosts.js';
import { emitPackageJson } from './package-json.js';
import { emitReadme, markedPart } from './readme.js';

export { projectPins } from './package-json.js';

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
  // Only the facade: how the runtime is split into files stays private to the generated folder.
  const facade = moduleSpecifier(scaffoldPaths.main, generatedPaths.facade);
  const imports = [importDeclaration(['definition', 'main'], facade)];
  const comment =
    '// Starts the server: `--transport stdio|http`, `--host`, `--port`. ' +
    'Add process-wide setup (tracing, config) above.';
  return finalText(`${imports.join('\n')}\n\n${comment}\nmain(definition);`);
}

/**
 * The user's start-up and shutdown hooks. Written once: from then on the user's, like the handlers. It imports only
 * the facade, whose `Services` type is inferred from what `setup` returns (so it must not be annotated with it).
 */
function setupTs(): string {
  const facade = moduleSpecifier(scaffoldPaths.setup, generatedPaths.facade);
  return finalText(
    [
      importDeclaration(['Config', 'Services', 'SetupTools'], facade, true),
      '',
      '/**',
      ' * Runs once, before the server answers its first request; what it returns reaches every handler as',
      ' * `ctx.services` (typed as `Services`). Open connection pools and clients here. `config` holds the',
      " * manifest's `config` variables, already checked. `tools.mode` is 'test' when the contract tests run the",
      ' * server: connect to a throwaway database or a fake then. A throw stops the server (exit code 1).',
      ' */',
      'export async function setup(config: Config, tools: SetupTools) {',
      '  return { config, mode: tools.mode };',
      '}',
      '',
      '/** Runs once at shutdown (stdin closed, SIGTERM, SIGINT), after the calls in flight: close pools here. */',
      'export async function teardown(services: Services): Promise<void> {',
      '  // e.g. await services.pool.end();',
      '}',
      '',
      '// Checks /readyz runs over HTTP, failing while they return false or a reason (docs/handlers.md), e.g.:',
      "// export const ready: ReadyChecks = { database: ({ pool }) => pool.query('SELECT 1').then(() => true) };",
    ].join('\n'),
  );
}

/** What the project holds of the two scaffold files a run keeps in step, or null where there is none. */
export interface ScaffoldInputs {
  readonly packageJson: string | null;
  readonly readme: string | null;
}

/** README.md's generated part: every fact of the manifest the README shows. */
function readmePart(model: ServerModel, ctx: EmitContext): string {
  const http = model.transports.http;
  const hosts = hostsView(model);
  const files = [
    [code(ctx.manifestPath), 'you: the single description of tools, resources, prompts and handles'],
    ['`src/handlers/**`', 'you: one handler per tool, resource and prompt; created once, never overwritten'],
    ['`src/main.ts`', 'you: the process entry'],
    ['`src/setup.ts`', 'you: start-up and shutdown hooks, the services every handler gets'],
    ['`src/generated/**`', 'mcp-gen: rewritten by `npm run generate`; do not edit'],
    [code(scaffoldPaths.readme), 'you, but for the part between the `mcp-gen:begin` and `mcp-gen:end` lines'],
  ];
  return finalText(
    renderTemplate(ctx, 'scaffold/README-part.md.hbs', {
      manifest: code(ctx.manifestPath),
      files: table(['file', 'owner'], files),
      // The code blocks show the bind address and paths as written in the manifest: no backtick run may end one.
      fence: fenceFor(hosts.stdioJson, hosts.httpJson, hosts.httpUrl),
      protocolVersion,
      // Shown in a shell comment: a line break would end it.
      httpHost: (http?.host ?? manifestDefaults.httpHost).replace(/[\r\n\u2028\u2029]/g, ' '),
      httpPort: http?.port ?? manifestDefaults.httpPort,
      httpPath: http?.path ?? manifestDefaults.httpPath,
      environment: environmentTable(model),
      envExample: code(generatedPaths.envExample),
      hasHttp: http !== null,
      hasStdio: model.transports.stdio !== null,
      mcpbFile: code(`dist/${model.server.name}-${model.server.version}.mcpb`),
      // start:http refuses to start without the tokens, so the README says so before its command.
      httpTokensEnv: http !== null && model.auth.type === 'bearer' ? model.auth.tokensEnv : '',
      // Without them the server stops at start, so `npm test` too: the README names them before its commands.
      requiredConfig: model.config
        .filter((v) => v.required && v.default === null)
        .map((v) => code(v.name))
        .join(', '),
      httpTokenScopes: model.auth.scopes.map((s) => s.name).join(','),
      hasEnvironment: environmentVariables(model).length > 0,
      hosts,
      // targets: [workers]: the secrets a deployment stores with `wrangler secret put` (vars are in wrangler.jsonc).
      workers: model.targets.includes('workers')
        ? {
            authorized: model.auth.type !== 'none',
            secrets: environmentVariables(model)
              .filter((v) => v.secret)
              .map((v) => code(v.name))
              .join(', '),
          }
        : null,
    }),
  );
}

/** The scaffold files of the project, and what keeping README.md's part in step found. */
export function emitScaffold(
  model: ServerModel,
  ctx: EmitContext,
  existing: ScaffoldInputs = { packageJson: null, readme: null },
): { readonly files: readonly GeneratedFile[]; readonly findings: readonly Finding[] } {
  const part = readmePart(model, ctx);
  const whole = renderTemplate(ctx, 'scaffold/README.md.hbs', {
    title: inline(model.server.title ?? model.server.name),
    description: paragraphs(model.server.description ?? ''),
    part: markedPart(part),
  });
  const readme = emitReadme(finalText(whole), part, existing.readme);
  const packageJson = emitPackageJson(model, ctx, existing.packageJson, scaffoldPaths.packageJson);
  const files = [
    // A run's pending folder and lock are never committed: a checkout carrying them is not trusted (write/trust.ts).
    // .env holds the values .env.example lists, secrets included: never committed either.
    {
      path: scaffoldPaths.gitignore,
      contents: `node_modules/\ndist/\n.env\n${pendingFolder}/\n${lockName}\n`,
      ownership: 'scaffold' as const,
    },
    readme.file,
    packageJson.file,
    { path: scaffoldPaths.tsconfig, contents: stableJson(tsconfig), ownership: 'scaffold' as const },
    { path: scaffoldPaths.main, contents: mainTs(), ownership: 'scaffold' as const },
    { path: scaffoldPaths.setup, contents: setupTs(), ownership: 'scaffold' as const },
  ];
  return { files, findings: [...readme.findings, ...packageJson.findings] };
}
