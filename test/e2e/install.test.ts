import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTree, repoRoot } from '../support/golden.js';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-e2e-')));
const clone = path.join(root, 'mcp-gen');
afterAll(() => rmSync(root, { recursive: true, force: true }), 300_000); // six node_modules folders

function run(
  command: string,
  args: string[],
  cwd: string,
  timeout = 300_000,
  env: Readonly<Record<string, string>> = {},
) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...env,
    },
  });
  return { code: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}

// mcp-gen as a newcomer gets it while it is on no registry: a fresh clone of this repository
// (its committed HEAD) and `npm ci`, which also builds it. A clone rather than this checkout, so
// that nothing the checkout has besides its committed files (a dist/, node_modules, a link) helps.
beforeAll(() => {
  const cloned = run('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone], root);
  expect(cloned.code, cloned.output).toBe(0);
  const installed = run('npm', ['ci', '--prefer-offline'], clone, 600_000);
  expect(installed.code, installed.output).toBe(0);
}, 600_000);

// The newcomer path, exactly as `init` prints it, in a clean temporary folder: init, a plain
// `npm install` (the package registry is the only network), typecheck, the generated contract
// tests, and `npx mcp-gen` inside the project, which runs the mcp-gen that created it.
describe('init -> npm install -> typecheck -> test -> npx mcp-gen generate --check', () => {
  for (const example of ['blank', 'demo', 'notes', 'calendar', 'files']) {
    it(example, () => {
      const dir = path.join(root, example);
      const init = run(
        process.execPath,
        [path.join(clone, 'bin', 'mcp-gen.js'), 'init', example, '--example', example, '--yes'],
        root,
      );
      expect(init.code, init.output).toBe(0);
      expect(init.stdout).toContain(
        `mcp-gen 0.1.0 comes from no registry (${clone}): packed into mcp-gen-0.1.0.tgz, ` +
          `which package.json installs\n\nnext:\n  cd ${example}\n  npm install\n  npm test\n  npm start\n`,
      );
      // No generated text file names a path of this machine.
      for (const file of listTree(dir).filter((f) => !f.endsWith('.tgz'))) {
        expect(readFileSync(path.join(dir, file), 'utf8'), file).not.toContain(root);
      }
      const install = run('npm', ['install'], dir);
      expect(install.code, install.output).toBe(0);
      expect(lstatSync(path.join(dir, 'node_modules', 'mcp-gen')).isSymbolicLink()).toBe(false);
      expect(run('npx', ['mcp-gen', '--version'], dir).stdout).toBe('0.1.0\n');
      const typecheck = run('npm', ['run', 'typecheck'], dir);
      expect(typecheck.code, typecheck.output).toBe(0);
      // Right after init, with nothing set: the files server's setup gives the contract tests a throwaway scope
      // holding what its examples read (FILES_ROOT set in the calling shell would be the user's choice instead).
      const test = run('npm', ['test'], dir, 300_000, { FILES_ROOT: '' });
      expect(test.code, test.output.slice(-4000)).toBe(0);
      expect(test.output).toMatch(/# fail 0/);
      // The project regenerates itself with its own mcp-gen, and nothing changes.
      const regenerate = run('npx', ['mcp-gen', 'generate', '--check'], dir);
      expect(regenerate.code, regenerate.output).toBe(0);
      expect(regenerate.stdout).toBe('mcp.yaml: generated files are up to date\n');
    }, 600_000);
  }
});

// A project that gets its package.json from generate alone, as after `import openapi`: no init, so nothing was
// packed. Its package.json links the mcp-gen that generated it (load/origin.ts), so a plain `npm install` works
// without a registry, and the project then type-checks, builds and regenerates itself with that mcp-gen.
describe('import openapi -> generate -> npm install -> typecheck -> build -> npx mcp-gen generate --check', () => {
  it('installs as a project made by init does', () => {
    const dir = path.join(root, 'alone');
    const cli = path.join(clone, 'bin', 'mcp-gen.js');
    const spec = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi', 'petstore.json');
    const imported = run(process.execPath, [cli, 'import', 'openapi', spec, '--out', 'alone/mcp.yaml'], root);
    expect(imported.code, imported.output).toBe(0);
    const generated = run(process.execPath, [cli, 'generate', 'alone/mcp.yaml'], root);
    expect(generated.code, generated.output).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.devDependencies['mcp-gen']).toBe('file:../mcp-gen');
    expect(listTree(dir).filter((f) => f.endsWith('.tgz'))).toEqual([]);
    const install = run('npm', ['install'], dir);
    expect(install.code, install.output).toBe(0);
    expect(realpathSync(path.join(dir, 'node_modules', 'mcp-gen'))).toBe(clone);
    expect(run('npx', ['mcp-gen', '--version'], dir).stdout).toBe('0.1.0\n');
    const typecheck = run('npm', ['run', 'typecheck'], dir);
    expect(typecheck.code, typecheck.output).toBe(0);
    const build = run('npm', ['run', 'build'], dir);
    expect(build.code, build.output).toBe(0);
    const regenerate = run('npx', ['mcp-gen', 'generate', '--check'], dir);
    expect(regenerate.code, regenerate.output).toBe(0);
    expect(regenerate.stdout).toBe('mcp.yaml: generated files are up to date\n');
    // The MCPB CLI is a devDependency the install brought: packing runs it from node_modules, offline.
    expect(pkg.devDependencies['@anthropic-ai/mcpb']).toBe('2.1.2');
    const pack = run('npm', ['run', 'pack:mcpb'], dir, 300_000, { npm_config_offline: 'true' });
    expect(pack.code, pack.output).toBe(0);
    expect(pack.stdout.endsWith('pack:mcpb: wrote dist/swagger-petstore-1.0.0.mcpb\n')).toBe(true);
  }, 600_000);
});

// What a user's own backend brings: a handler that imports pg, ioredis and a CommonJS-only package that
// requires Node built-ins (debug). The bundle a host runs keeps them as imports from node_modules, so it loads
// them as `node dist/src/main.js` does; `npm start --silent` writes nothing but JSON-RPC (plain `npm start` adds
// npm's banner, so the host command is `node dist/server.mjs`), and `pack:mcpb` packs it offline.
describe('a handler with its own dependencies, run as a host runs it', () => {
  const handler = [
    "import debug from 'debug';",
    "import { Redis } from 'ioredis';",
    "import pg from 'pg';",
    "import type { ToolHandler } from '../../generated/index.gen.js';",
    '',
    "const log = debug('deps');",
    '',
    "export const helloHandler: ToolHandler<'hello'> = async (input) => {",
    '  // Neither client connects before its first command: this proves the modules load and construct.',
    "  const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:1/none' });",
    '  const redis = new Redis({ lazyConnect: true, port: 1 });',
    "  const loaded = [typeof pool.query, redis.status, typeof log.extend].join(',');",
    '  await pool.end();',
    '  redis.disconnect();',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: handler source text with a template literal
    '  return { greeting: `Hello, ${input.name}! ${loaded}` };',
    '};',
    '',
  ].join('\n');
  const dir = path.join(root, 'deps');

  beforeAll(() => {
    const init = run(process.execPath, [path.join(clone, 'bin', 'mcp-gen.js'), 'init', 'deps', '--yes'], root);
    expect(init.code, init.output).toBe(0);
    writeFileSync(path.join(dir, 'src', 'handlers', 'tools', 'hello.ts'), handler);
    const install = run('npm', ['install'], dir);
    expect(install.code, install.output).toBe(0);
    const added = run(
      'npm',
      ['install', 'pg@8.23.1', 'ioredis@6.0.0', 'debug@4.4.3', '@types/pg@8.23.1', '@types/debug@4.1.13'],
      dir,
    );
    expect(added.code, added.output).toBe(0);
    const build = run('npm', ['run', 'build'], dir);
    expect(build.code, build.output).toBe(0);
  }, 900_000);

  it('dist/server.mjs answers a tools/call that loads pg, ioredis and debug', async () => {
    const client = new Client(
      { name: 'e2e', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: ['dist/server.mjs'], cwd: dir, stderr: 'pipe' }),
    );
    try {
      const result = await client.callTool({ name: 'hello', arguments: { name: 'Ada' } });
      expect(result.structuredContent).toEqual({ greeting: 'Hello, Ada! function,wait,function' });
    } finally {
      await client.close();
    }
  });

  it('npm run pack:mcpb packs offline, its production dependencies copied from node_modules', () => {
    const pack = run('npm', ['run', 'pack:mcpb'], dir, 300_000, { npm_config_offline: 'true' });
    expect(pack.code, pack.output).toBe(0);
    expect(pack.stdout.endsWith('pack:mcpb: wrote dist/deps-0.1.0.mcpb\n')).toBe(true);
  });

  it("a failing npm command prints npm's error on stderr, and no JSON on stdout", () => {
    const missing = run('npm', ['run', 'no-such-script'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.output).toContain('npm error Missing script: "no-such-script"');
  });

  it("npm start prints npm's banner on stdout, which is why a host runs node dist/server.mjs", () => {
    const started = spawnSync('npm', ['start'], { cwd: dir, input: '', encoding: 'utf8', timeout: 60_000 });
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout).toBe('\n> deps@0.1.0 start\n> node dist/server.mjs\n\n');
  });

  it('npm start --silent writes only JSON-RPC to stdout, and starts without building', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1.0.0' },
    };
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } };
    const child = spawn('npm', ['start', '--silent'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      // The answer is in: closing stdin ends a stdio server.
      if (stdout.includes('\n')) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdin.write(`${JSON.stringify(request)}\n`);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length, stdout).toBe(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'hello' }] } });
    // npm printed nothing of its own, and nothing was rebuilt.
    expect(stderr).not.toContain('> node dist/server.mjs');
    expect(stderr).not.toContain('tsc');
  });
});
