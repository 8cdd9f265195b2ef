// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCPB's own ${__dirname} and ${user_config.x} placeholders
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleDir } from '../support/examples.js';
import { listTree, repoRoot } from '../support/golden.js';
import { protocolVersion } from '../support/paths.js';

// `npm run pack:mcpb` in a generated project, checked by the real MCPB CLI (the pinned version the pack script
// runs from node_modules; mcp-gen's own devDependency too, so it is in the linked node_modules): the manifest passes
// `mcpb validate`, `mcpb info` reads the bundle, and the server unpacked from the bundle starts as a desktop host
// starts it (`mcp_config`) and answers.

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-mcpb-')));
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

const mcpb = path.join(repoRoot, 'node_modules', '.bin', 'mcpb');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');

function run(command: string, args: string[], cwd: string, timeout = 300_000) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    // Offline: packing takes the MCPB CLI and the staged dependencies from node_modules, never from a registry.
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_offline: 'true',
    },
  });
  return { code: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}

/** A project folder whose node_modules is mcp-gen's own (the SDK, tsc, esbuild and the MCPB CLI at their pins). */
function linkModules(dir: string): void {
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

interface Packed {
  readonly manifest: Record<string, unknown>;
  readonly files: string[];
  readonly unpacked: string;
}

/** Packs `dir`, checks what the CLI says of its manifest and bundle, and unpacks the bundle. */
function packAndCheck(dir: string, name: string, version: string): Packed {
  const pack = run('npm', ['run', 'pack:mcpb'], dir);
  expect(pack.code, pack.output).toBe(0);
  const file = `${name}-${version}.mcpb`;
  expect(pack.stdout).toContain(`\nArchive Details\nname: ${name}\nversion: ${version}\nfilename: ${file}\n`);
  expect(pack.stdout.endsWith(`pack:mcpb: wrote dist/${file}\n`)).toBe(true);

  const validate = run(mcpb, ['validate', 'src/generated/mcpb-manifest.gen.json'], dir);
  expect(validate.code, validate.output).toBe(0);
  expect(validate.stdout).toBe('Manifest schema validation passes!\n');

  // What `mcpb info` 2.1.2 prints: the file, its size, and the signature state (it prints no manifest fields).
  const bundle = path.join(dir, 'dist', file);
  const info = run(mcpb, ['info', bundle], dir);
  expect(info.code, info.output).toBe(0);
  const kb = (statSync(bundle).size / 1024).toFixed(2);
  expect(info.stdout).toBe(`File: ${file}\nSize: ${kb} KB\n\nWARNING: Not signed\n`);

  const unpacked = path.join(root, `${name}-unpacked`);
  const unpack = run(mcpb, ['unpack', bundle, unpacked], dir);
  expect(unpack.code, unpack.output).toBe(0);
  const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  expect(manifest.name).toBe(name);
  expect(manifest.version).toBe(version);
  return { manifest, files: listTree(unpacked), unpacked };
}

/** Starts the unpacked server exactly as its `mcp_config` says, `${__dirname}` being the bundle's folder. */
async function connectAsHost(packed: Packed, env: Record<string, string>): Promise<Client> {
  const config = (packed.manifest.server as { mcp_config: { command: string; args: string[] } }).mcp_config;
  expect(config.command).toBe('node');
  const args = config.args.map((arg) => arg.replace('${__dirname}', packed.unpacked));
  const client = new Client(
    { name: 'mcpb-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: protocolVersion } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

const toolNames = (manifest: Record<string, unknown>) => (manifest.tools as { name: string }[]).map((t) => t.name);

describe('the examples pack into MCP Bundles the MCPB CLI accepts', () => {
  for (const [example, name, version, tools] of [
    ['demo', 'demo-server', '0.2.0', ['add']],
    ['notes', 'notes', '0.3.0', ['publish_note_draft', 'search_notes', 'start_note_draft']],
  ] as const) {
    it(example, async () => {
      const dir = path.join(root, example);
      cpSync(exampleDir(example), dir, {
        recursive: true,
        filter: (source) => !/[\\/](node_modules|dist)$/.test(source),
      });
      linkModules(dir);
      const packed = packAndCheck(dir, name, version);
      // The generated manifest as it is: the example's package.json names no author.
      const generated = JSON.parse(readFileSync(path.join(dir, 'src/generated/mcpb-manifest.gen.json'), 'utf8'));
      expect(packed.manifest).toEqual(generated);
      expect(toolNames(packed.manifest)).toEqual([...tools]);
      // The SDK is inside server.mjs, and neither example imports another package: nothing else to ship.
      expect(packed.files).toEqual(['dist/server.mjs', 'manifest.json']);
      const client = await connectAsHost(packed, {});
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...tools]);
        if (example === 'demo') {
          const result = await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } });
          expect(result.structuredContent).toEqual({ sum: 42 });
        }
      } finally {
        await client.close();
      }
    }, 600_000);
  }
});

// A server that imports a package besides the SDK (ioredis, for its Redis store) and reads a secret: the bundle
// carries its production dependencies and none of its dev ones, asks for the secret as a sensitive field, and
// names the author package.json names.
describe('a bundle with production dependencies and configuration', () => {
  const manifest = `mcpGen: 1
server: { name: ledger, version: 1.2.3, description: Books payments once each. }
transports: { stdio: {} }
store: { type: redis, urlEnv: LEDGER_REDIS_URL }
config:
  LEDGER_API_KEY: { description: The payment API key., secret: true }
  LEDGER_CURRENCY: { description: The currency booked in., default: EUR }
tools:
  book_payment:
    description: Book one payment.
    idempotency: key
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false }
    input:
      type: object
      properties: { cents: { type: integer, minimum: 1 } }
      required: [cents]
      additionalProperties: false
`;

  it('ships ioredis from node_modules and no dev dependency, with user_config and the author', async () => {
    const dir = path.join(root, 'ledger');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'mcp.yaml'), manifest);
    const generate = run(process.execPath, [cli, 'generate', 'mcp.yaml'], dir);
    expect(generate.code, generate.output).toBe(0);
    const packageJson = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(packageJson.dependencies).toEqual({ '@modelcontextprotocol/server': '2.4.0', ioredis: '6.0.0' });
    packageJson.author = 'Ada Lovelace <ada@example.com> (https://example.com/ada)';
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
    linkModules(dir);

    const packed = packAndCheck(dir, 'ledger', '1.2.3');
    expect(packed.manifest.author).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      url: 'https://example.com/ada',
    });
    expect(packed.manifest.user_config).toEqual({
      ledger_api_key: {
        type: 'string',
        title: 'LEDGER_API_KEY',
        description: 'The payment API key.',
        required: true,
        sensitive: true,
      },
      ledger_currency: {
        type: 'string',
        title: 'LEDGER_CURRENCY',
        description: 'The currency booked in.',
        required: false,
        default: 'EUR',
      },
      ledger_redis_url: {
        type: 'string',
        title: 'LEDGER_REDIS_URL',
        description:
          'The Redis URL of the state store (used approvals, idempotency keys), the same for every instance.',
        required: true,
        sensitive: true,
      },
    });
    expect((packed.manifest.server as { mcp_config: { env: unknown } }).mcp_config.env).toEqual({
      LEDGER_API_KEY: '${user_config.ledger_api_key}',
      LEDGER_CURRENCY: '${user_config.ledger_currency}',
      LEDGER_REDIS_URL: '${user_config.ledger_redis_url}',
    });
    const modules = new Set(packed.files.filter((f) => f.startsWith('node_modules/')).map((f) => f.split('/')[1]));
    expect(modules.has('ioredis')).toBe(true);
    for (const dev of ['typescript', 'esbuild', '@types', '@modelcontextprotocol', 'mcp-gen', '@anthropic-ai']) {
      expect(modules.has(dev), dev).toBe(false);
    }
    const ioredis = JSON.parse(readFileSync(path.join(packed.unpacked, 'node_modules/ioredis/package.json'), 'utf8'));
    expect(ioredis.version).toBe('6.0.0');

    // The server loads ioredis from the bundle's own node_modules; a store that is down does not stop it.
    const client = await connectAsHost(packed, {
      LEDGER_API_KEY: 'key',
      LEDGER_CURRENCY: 'EUR',
      LEDGER_REDIS_URL: 'redis://127.0.0.1:1',
    });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['book_payment']);
    } finally {
      await client.close();
    }
  }, 600_000);
});
