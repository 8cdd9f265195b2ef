// Packs the built stdio server into an MCP Bundle (`dist/<name>-<version>.mcpb`) that desktop hosts install with
// one click: `npm run pack:mcpb` builds first, then runs this. The bundle holds exactly what the host runs:
//   manifest.json     src/generated/mcpb-manifest.gen.json (derived from mcp.yaml), `author` from package.json
//   dist/server.mjs   the bundled server (the SDK is inside it)
//   node_modules/     the production dependencies the bundle still imports (none when it imports only the SDK),
//                     installed with `npm install --omit=dev` into the staging folder: never a dev dependency
// The archive itself is made and checked by the official MCPB CLI, `@anthropic-ai/mcpb` at the exact version
// below, a devDependency of the project: it runs from node_modules, so packing needs no registry.
//
//   node src/generated/pack-mcpb.gen.mjs [--dist <folder>]   tsc's output folder (default: dist)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
/** Runs a command in the foreground; `npm` is a .cmd file on Windows, which only a shell runs. */
const run = (command, args, cwd) => {
  const shell = process.platform === 'win32' && command === 'npm';
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', shell });
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

const dependencies = Object.fromEntries(
  Object.entries(project.dependencies ?? {}).filter(([name]) => !bundledPackages.test(name)),
);
if (Object.keys(dependencies).length > 0) {
  const staged = { name: project.name, version: project.version, private: true, type: 'module', dependencies };
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
  // The project's lockfile keeps the staged install at the versions the project was tested with.
  if (existsSync('package-lock.json')) copyFileSync('package-lock.json', path.join(staging, 'package-lock.json'));
  run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund'], staging);
}

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
