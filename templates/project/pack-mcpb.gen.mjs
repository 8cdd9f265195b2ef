// Packs the built stdio server into an MCP Bundle (`dist/<name>-<version>.mcpb`) that desktop hosts install with
// one click: `npm run pack:mcpb` builds first, then runs this. The bundle holds exactly what the host runs:
//   manifest.json     src/generated/mcpb-manifest.gen.json (derived from mcp.yaml), `author` from package.json
//   dist/server.mjs   the bundled server (the SDK is inside it)
//   node_modules/     the production dependencies the bundle still imports and theirs (none when it imports only
//                     the SDK), copied from the project's node_modules: never a dev dependency
// The archive itself is made and checked by the official MCPB CLI, `@anthropic-ai/mcpb` at the exact version
// below, a devDependency of the project: it runs from node_modules, so packing needs no registry.
//
//   node src/generated/pack-mcpb.gen.mjs [--dist <folder>]   tsc's output folder (default: dist)
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

/** The MCPB CLI that packs and validates, pinned: the same manifest always meets the same checks. */
const mcpbPackage = '@anthropic-ai/mcpb';
const mcpbVersion = '2.1.2';
/** Inlined into dist/server.mjs by bundle.gen.mjs (its `bundledPackages`), so the bundle needs no copy. */
const bundledPackages = /^@modelcontextprotocol\//;

const argv = process.argv.slice(2);
const dist = argv.includes('--dist') ? (argv[argv.indexOf('--dist') + 1] ?? 'dist') : 'dist';
const fail = (message) => {
  process.stderr.write(`pack:mcpb: ${message}\n`);
  process.exit(1);
};
/** Runs a command in the foreground. */
const run = (command, args, cwd) => {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
};

const project = JSON.parse(readFileSync('package.json', 'utf8'));
const manifest = JSON.parse(readFileSync('src/generated/mcpb-manifest.gen.json', 'utf8'));
const server = path.join(dist, 'server.mjs');
if (!existsSync(server)) fail(`${server} is missing: run \`npm run build\` first`);

/** package.json's `author`, as npm writes it ("Name <email> (url)") or as an object; null when unset. */
function authorOf(author) {
  if (typeof author === 'object' && author !== null && typeof author.name === 'string') {
    const { name, email, url } = author;
    return { name, ...(typeof email === 'string' ? { email } : {}), ...(typeof url === 'string' ? { url } : {}) };
  }
  if (typeof author !== 'string' || author.trim() === '') return null;
  const match = /^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?\s*$/.exec(author);
  if (match === null || match[1] === '') return { name: author.trim() };
  return { name: match[1], ...(match[2] ? { email: match[2] } : {}), ...(match[3] ? { url: match[3] } : {}) };
}

const staging = path.join(dist, 'mcpb');
rmSync(staging, { recursive: true, force: true });
mkdirSync(path.join(staging, 'dist'), { recursive: true });
const author = authorOf(project.author);
writeFileSync(
  path.join(staging, 'manifest.json'),
  `${JSON.stringify(author === null ? manifest : { ...manifest, author }, null, 2)}\n`,
);
copyFileSync(server, path.join(staging, 'dist', 'server.mjs'));

/**
 * Where Node finds package `name` for code in `from`: node_modules there, then in each folder above; null when
 * nowhere.
 */
function installed(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const home = path.join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(path.join(home, 'package.json'))) return home;
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Copies each production dependency the bundle still imports, and each of theirs, from the project's node_modules
 * into the staging folder at the same place: the versions the project was built and tested with, and no registry.
 */
function stageDependencies(names) {
  const root = process.cwd();
  const staged = new Set();
  const stage = (name, from, required) => {
    const home = installed(name, from);
    if (home === null) {
      if (required) fail(`${name} is not installed: run \`npm install\``);
      return;
    }
    if (staged.has(home)) return;
    staged.add(home);
    const relative = path.relative(root, home);
    const place = relative.startsWith('..') ? path.join('node_modules', ...name.split('/')) : relative;
    // A package's own node_modules are staged as its dependencies are found, never wholesale (dev ones stay out).
    const nested = path.join(home, 'node_modules');
    cpSync(home, path.join(staging, place), {
      recursive: true,
      dereference: true,
      filter: (source) => source !== nested,
    });
    const found = JSON.parse(readFileSync(path.join(home, 'package.json'), 'utf8'));
    for (const next of Object.keys(found.dependencies ?? {})) stage(next, home, true);
    for (const next of Object.keys({ ...found.optionalDependencies, ...found.peerDependencies }))
      stage(next, home, false);
  };
  for (const name of names) stage(name, root, true);
}

const dependencies = Object.keys(project.dependencies ?? {}).filter((name) => !bundledPackages.test(name));
stageDependencies(dependencies);

/**
 * The MCPB CLI's entry script, found as Node finds a package (node_modules here, then in each folder above),
 * and only at the pinned version.
 */
function mcpbEntry() {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const home = path.join(dir, 'node_modules', ...mcpbPackage.split('/'));
    if (existsSync(path.join(home, 'package.json'))) {
      const found = JSON.parse(readFileSync(path.join(home, 'package.json'), 'utf8'));
      if (found.version !== mcpbVersion)
        fail(`${mcpbPackage} ${found.version} is installed, and this script runs ${mcpbVersion}: run \`npm install\``);
      const bin = typeof found.bin === 'string' ? found.bin : found.bin?.mcpb;
      return path.join(home, bin);
    }
    if (path.dirname(dir) === dir)
      fail(`${mcpbPackage} ${mcpbVersion} is not installed: add it to devDependencies and run \`npm install\``);
  }
}

const output = path.join(dist, `${manifest.name}-${manifest.version}.mcpb`);
run(process.execPath, [mcpbEntry(), 'pack', staging, output], process.cwd());
process.stdout.write(`pack:mcpb: wrote ${output}\n`);
