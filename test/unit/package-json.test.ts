import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runIn } from '../support/golden.js';

// package.json is the user's after the first run, but the keys that state facts of the manifest (what the
// runtime imports, the build and start scripts, the Node it needs) follow the manifest on every run.

const dir = path.join(repoRoot, '.test-out', 'package-json');
const manifest = (extra: string) =>
  'mcpGen: 1\nserver: { name: pkg, version: 1.0.0 }\n' +
  extra +
  'tools:\n  ping:\n    title: Ping\n    description: Answer with pong to show the server is alive.\n' +
  '    annotations: { readOnlyHint: true, openWorldHint: false }\n' +
  '    input: { type: object, additionalProperties: false }\n';
const oauthHttp =
  'transports:\n  stdio: {}\n  http: { host: 127.0.0.1, port: 3400, path: /mcp }\n' +
  'auth:\n  type: oauth\n  issuer: https://auth.example.com\n  jwksUri: https://auth.example.com/jwks.json\n' +
  '  resource: https://pkg.example.com/mcp\n  scopes: { pkg.read: Read }\n';
const pkg = () => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
const generate = async (extra: string) => {
  writeFileSync(path.join(dir, 'mcp.yaml'), manifest(extra));
  const result = await runIn(dir, ['generate']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
};

beforeEach(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
});

describe('package.json follows the manifest', () => {
  it('gains jose and start:http with OAuth over HTTP, and keeps every key of the user', async () => {
    await generate('');
    expect(pkg().scripts['start:http']).toBeUndefined();
    const mine = pkg();
    mine.scripts.seed = 'node scripts/seed.mjs';
    mine.dependencies.pg = '8.23.1';
    mine.description = 'mine';
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(mine, null, 4)}\n`);
    const out = await generate(oauthHttp);
    expect(out).toContain('update    user-edit package.json\n');
    const next = pkg();
    expect(next.scripts['start:http']).toBe('node dist/server.mjs --transport http');
    expect(next.dependencies).toEqual({ '@modelcontextprotocol/server': '2.4.0', jose: '6.2.17', pg: '8.23.1' });
    expect(next.scripts.seed).toBe('node scripts/seed.mjs');
    expect(next.description).toBe('mine');
    // The user's key order and four-space indentation stay, as npm keeps them when it edits the file.
    expect(Object.keys(next)).toEqual(Object.keys(mine));
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(`${JSON.stringify(next, null, 4)}\n`);
    // In step, it is not written again.
    expect(await generate(oauthHttp)).not.toContain('package.json');
  });

  it('depends on @opentelemetry/api, exactly, only with telemetry, and ships telemetry.gen.ts only then', async () => {
    await generate('');
    expect(pkg().dependencies).toEqual({ '@modelcontextprotocol/server': '2.4.0' });
    expect(readFileSync(path.join(dir, 'src/generated/server.gen.ts'), 'utf8')).not.toContain('telemetry');
    await generate('telemetry: { type: opentelemetry }\n');
    expect(pkg().dependencies).toEqual({ '@modelcontextprotocol/server': '2.4.0', '@opentelemetry/api': '1.9.1' });
    expect(readFileSync(path.join(dir, 'src/generated/server.gen.ts'), 'utf8')).toContain(
      "telemetry: () => import('./runtime/telemetry.gen.js')",
    );
  });

  it('loses start:http with the HTTP transport, unless the user changed that script', async () => {
    await generate(oauthHttp);
    await generate('');
    expect(pkg().scripts['start:http']).toBeUndefined();
    // Dependencies are never removed: a handler of the user's may import jose too.
    expect(pkg().dependencies.jose).toBe('6.2.17');
    await generate(oauthHttp);
    const mine = pkg();
    mine.scripts['start:http'] = 'node dist/server.mjs --transport http --port 8080';
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(mine, null, 2)}\n`);
    await generate('');
    expect(pkg().scripts['start:http']).toBe('node dist/server.mjs --transport http --port 8080');
  });

  it('has pack:mcpb and the bundle manifest only while the server offers stdio', async () => {
    const bundleFiles = ['src/generated/mcpb-manifest.gen.json', 'src/generated/pack-mcpb.gen.mjs'];
    const exists = (file: string) => existsSync(path.join(dir, file));
    await generate('');
    expect(pkg().scripts['pack:mcpb']).toBe('npm run build && node src/generated/pack-mcpb.gen.mjs');
    expect(bundleFiles.map(exists)).toEqual([true, true]);
    const httpOnly = 'transports:\n  http: { host: 127.0.0.1, port: 3400, path: /mcp }\n';
    const out = await generate(httpOnly);
    expect(out).toContain('remove    stale     src/generated/mcpb-manifest.gen.json\n');
    expect(pkg().scripts['pack:mcpb']).toBeUndefined();
    expect(bundleFiles.map(exists)).toEqual([false, false]);
  });

  it('turns the old rebuild-on-start scripts into the current ones', async () => {
    await generate('');
    const old = pkg();
    old.scripts.start = 'npm run build && node dist/server.mjs';
    old.scripts.build = 'tsc -p tsconfig.json && npm run bundle';
    old.scripts.bundle = 'esbuild dist/src/main.js --bundle --outfile=dist/server.mjs';
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(old, null, 2)}\n`);
    await generate('');
    expect(pkg().scripts).toMatchObject({
      start: 'node dist/server.mjs',
      build: 'tsc -p tsconfig.json && node src/generated/bundle.gen.mjs',
    });
    expect(pkg().scripts.bundle).toBeUndefined();
  });

  it('keeps its byte-order mark, tabs, CRLF and missing final line break when brought in step', async () => {
    await generate('');
    const mine = pkg();
    mine.scripts.mine = 'echo mine';
    delete mine.dependencies['@modelcontextprotocol/server'];
    const layout = (data: unknown, end: string) =>
      `\uFEFF${JSON.stringify(data, null, '\t').replace(/\n/g, '\r\n')}${end}`;
    for (const end of ['\r\n', '']) {
      writeFileSync(path.join(dir, 'package.json'), layout(mine, end));
      expect(await generate('')).toContain('update    user-edit package.json\n');
      const expected = structuredClone(mine);
      expected.dependencies['@modelcontextprotocol/server'] = '2.4.0';
      expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(layout(expected, end));
      // In step now: the next run keeps the file as it is.
      expect(await generate('')).not.toContain('package.json');
    }
  });

  it('is kept as it is, with a warning, when it is not a JSON object', async () => {
    await generate('');
    for (const [text, reason] of [
      ['[1, 2]\n', 'it holds an array, not an object'],
      ['null', 'it holds null, not an object'],
      ['{ "name": "pkg", }\n', 'it is not JSON (comments and trailing commas are not JSON either)'],
    ] as const) {
      writeFileSync(path.join(dir, 'package.json'), text);
      const result = await runIn(dir, ['generate']);
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain('package.json');
      expect(result.stderr).toBe(
        'package.json:1:1: warning [package-json-unreadable] package.json is kept as it is, and the keys ' +
          `mcp-gen owns in it do not follow the manifest: ${reason}\n` +
          '  hint: make it one JSON object again (as npm init writes it), then run generate again\n' +
          '0 errors, 1 warning\n',
      );
      expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe(text);
    }
  });

  it('names the MCPB CLI as an exact devDependency while the server has stdio, and writes no .npmrc', async () => {
    await generate('');
    expect(pkg().devDependencies).toEqual({
      '@anthropic-ai/mcpb': '2.1.2',
      '@modelcontextprotocol/client': '2.4.0',
      '@types/node': '20.19.43',
      esbuild: '0.28.2',
      'mcp-gen': pkg().devDependencies['mcp-gen'],
      typescript: '7.0.2',
    });
    expect(pkg().scripts['pack:mcpb']).toBe('npm run build && node src/generated/pack-mcpb.gen.mjs');
    expect(pkg().scripts.start).toBe('node dist/server.mjs');
    // npm's JSON mode changed the output of every npm command in the project.
    expect(existsSync(path.join(dir, '.npmrc'))).toBe(false);
  });
});
