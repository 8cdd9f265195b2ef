// Bundles the compiled CLI (dist/cli/index.js) and the libraries it loads on every run into a few
// ES modules in dist/bundle/, which bin/mcp-gen.js starts when they are newer than dist/cli/index.js.
// Resolving, reading and linking about two hundred small modules (mcp-gen's own and those of yaml,
// commander, ajv, Handlebars and json-schema-to-typescript) cost more than the code they hold; each
// command's `import()` stays a separate chunk, so `validate` still loads nothing of emit.
// Runs after tsc and scripts/build-validators.mjs in `npm run build`; dist/ keeps its layout for the tests.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const dist = new URL('../dist/', import.meta.url);
const out = new URL('bundle/', dist);

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: { cli: new URL('cli/index.js', dist).pathname },
  outdir: out.pathname,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
  // Loaded only by rare runs (editing existing handler files, import), and large: left as packages.
  // (Handlebars' compiler and ajv are loaded with createRequire when needed, never bundled.)
  external: ['ts-morph', 'swagger2openapi', '@modelcontextprotocol/client', 'ajv', 'ajv/*'],
  // json-schema-to-typescript requires Prettier when it loads, even though mcp-gen always compiles
  // with `format: false`, and Prettier's entry then imports its 680 kB build: a stand-in that fails
  // loudly if it is ever called takes its place.
  alias: { prettier: new URL('../scripts/bundle-prettier-stub.cjs', import.meta.url).pathname },
  // Bundled CommonJS (yaml, commander, Handlebars) requires Node built-ins.
  banner: {
    js:
      "import { createRequire as __bundleRequire } from 'node:module';\n" +
      'const require = __bundleRequire(import.meta.url);',
  },
});
// validate/validators.ts loads the standalone validators, and emit/shared/handlebars.ts the precompiled
// templates, relative to their own module: in the bundle, that is dist/bundle/.
const precompiled = new URL('validate/precompiled/', dist);
if (existsSync(precompiled)) cpSync(precompiled, new URL('precompiled/', out), { recursive: true });
const templates = new URL('emit/shared/precompiled-templates.cjs', dist);
if (existsSync(templates)) cpSync(templates, new URL('precompiled-templates.cjs', out));

// The run record's identity of mcp-gen (src/cache/identity.ts, toolIdentity) includes a hash of all
// the code in the bundle, computed here once instead of on every run: each file's relative path and the
// hash of its bytes, in code-unit order of the paths.
const files = readdirSync(out, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) =>
    path
      .relative(out.pathname, path.join(entry.parentPath ?? entry.path, entry.name))
      .split(path.sep)
      .join('/'),
  )
  .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const digest = createHash('sha256');
for (const file of files)
  digest.update(`${file}\n`).update(
    createHash('sha256')
      .update(readFileSync(new URL(file, out)))
      .digest('hex'),
  );
writeFileSync(new URL('code-hash.txt', out), `${digest.digest('hex')}\n`);
