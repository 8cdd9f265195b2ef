// Builds dist/server.mjs, the file `npm start` and every host configuration run: the compiled server
// (dist/src/main.js) and the MCP SDK in one module, so Node resolves and links one file instead of about fifty
// at start-up. Every other package the project imports (pg, ioredis, jose, a CommonJS-only or native package)
// stays an import from node_modules, loaded by Node exactly as `node dist/src/main.js` loads it: a bundler
// cannot break what it does not bundle. A warning from the bundler fails the build, since it means the bundle
// would not behave as the compiled code does.
//
//   node src/generated/bundle.gen.mjs           after `tsc`: bundles dist/src/main.js (npm run build)
//   node src/generated/bundle.gen.mjs --watch   bundles src/main.ts on every save and restarts the server with
//                                               the arguments after `--` (npm run dev -- --transport http)
//   node src/generated/bundle.gen.mjs --source  bundles src/main.ts once, without tsc's output (mcp-gen dev, which
//                                               typechecks beside it)
//   --dist <folder>                             tsc's output folder, where server.mjs goes too (default: dist)
// mcp-gen dev imports `openSourceBundler` instead of running this file: one bundler kept between saves rebuilds
// only what changed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { build, context } from 'esbuild';

/** Packages bundled with the server: the SDK, and whatever the SDK itself imports. */
const bundledPackages = /^@modelcontextprotocol\//;

/** Leaves every bare import of the project's own code external, but for the SDK's. */
const keepPackagesExternal = {
  name: 'keep-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || bundledPackages.test(args.path)) return undefined;
      // An import made inside node_modules belongs to a bundled package (the SDK's dependencies): bundle it too.
      if (/[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** The bundler's options: from src/main.ts (`fromSource`) or tsc's output, into `dist`/server.mjs. */
function optionsFor(fromSource, dist) {
  /** A path inside the dist folder, as esbuild wants it: absolute, or relative with a leading `./`. */
  const inDist = (file) => (path.isAbsolute(dist) ? path.join(dist, file) : `./${path.posix.join(dist, file)}`);
  const shims = fromSource ? './src/generated/bundle-shims.gen.ts' : inDist('src/generated/bundle-shims.gen.js');
  return {
    entryPoints: [fromSource ? './src/main.ts' : inDist('src/main.js')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: inDist('server.mjs'),
    // The SDK's Node shim loads ajv at start-up; this one loads it on first use (src/generated/bundle-shims.gen.ts).
    alias: { '@modelcontextprotocol/server/_shims': shims },
    // A CommonJS module inside the bundle may still call require() (a Node built-in); ES modules have none.
    // The #! line lets package.json `bin` run the bundle directly (npx, an installed package).
    banner: {
      js:
        '#!/usr/bin/env node\n' +
        "import { createRequire as __mcpGenCreateRequire } from 'node:module';\n" +
        'const require = __mcpGenCreateRequire(import.meta.url);',
    },
    plugins: [keepPackagesExternal],
    logLevel: 'warning',
  };
}

/**
 * A bundler of src/main.ts into `dist`/server.mjs, kept open: `rebuild()` resolves with the bundler's messages
 * (empty when it succeeded; a warning fails, as in a build), `dispose()` ends it. `project` is the project's folder.
 */
export async function openSourceBundler(dist, project) {
  const ctx = await context({ ...optionsFor(true, dist), absWorkingDir: project, logLevel: 'silent' });
  return {
    rebuild: async () => {
      try {
        const result = await ctx.rebuild();
        return result.warnings.map((warning) => `bundle: warning: ${warning.text}`).join('\n');
      } catch (error) {
        return `bundle: ${error.message}`;
      }
    },
    dispose: () => ctx.dispose(),
  };
}

const main = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
const argv = main ? process.argv.slice(2) : [];
const ownArgs = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
const serverArgs = argv.includes('--') ? argv.slice(argv.indexOf('--') + 1) : [];
const watch = ownArgs.includes('--watch');
const dist = ownArgs.includes('--dist') ? (ownArgs[ownArgs.indexOf('--dist') + 1] ?? 'dist') : 'dist';
const options = optionsFor(watch || ownArgs.includes('--source'), dist);
const serverFile = options.outfile;

if (!main) {
  // Imported (mcp-gen dev): nothing runs until the importer asks.
} else if (!watch) {
  const result = await build(options);
  if (result.warnings.length > 0) {
    process.stderr.write('bundle: failed, the bundler warned (above); the compiled server is dist/src/main.js\n');
    process.exit(1);
  }
} else {
  let server = null;
  const restart = () => {
    server?.kill('SIGTERM');
    server = spawn(process.execPath, [serverFile, ...serverArgs], { stdio: 'inherit' });
  };
  const restartOnBuild = {
    name: 'restart-on-build',
    setup(builder) {
      builder.onEnd((result) => {
        if (result.errors.length === 0) restart();
      });
    },
  };
  const ctx = await context({ ...options, plugins: [...options.plugins, restartOnBuild] });
  await ctx.watch();
  process.stderr.write('dev: rebuilding dist/server.mjs on every save of src/; Ctrl-C stops\n');
  process.once('SIGINT', () => {
    server?.kill('SIGTERM');
    void ctx.dispose();
  });
}
