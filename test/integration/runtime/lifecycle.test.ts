import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio } from '../../support/servers.js';
import { generateAndCompile, envelope, repoRoot, rpc, runToExit, startHttpServer } from './harness.js';

// The manifest's `config` is checked before anything starts (one error naming every bad variable, secrets'
// values never shown); src/setup.ts's `setup` runs once before the first request, and what it returns is
// every handler's `ctx.services`, lazily loaded handler modules included; `teardown` runs once at shutdown.

const manifest = `mcpGen: 1
server: { name: library, version: 1.0.0 }
transports:
  stdio: {}
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
config:
  LIBRARY_DATABASE_URL: { description: Database URL., type: url, secret: true }
  LIBRARY_API_URL: { description: Catalogue API., type: url, required: false }
  LIBRARY_PAGE_SIZE: { description: Page size., type: integer, default: 20 }
  LIBRARY_FAIL: { description: Makes setup throw., type: boolean, default: false }
  LIBRARY_SETUP_LOG: { description: Where setup and teardown write a line. }
tools:
  page_size:
    description: Tell the page size setup chose.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
    output:
      type: object
      additionalProperties: false
      required: [pageSize, mode]
      properties: { pageSize: { type: integer }, mode: { type: string } }
`;

const files = {
  'src/setup.ts': `import { appendFileSync } from 'node:fs';
import type { Config, Services, SetupTools } from './generated/index.gen.js';

export async function setup(config: Config, tools: SetupTools) {
  if (config.LIBRARY_FAIL) throw new Error(\`cannot reach the database at \${config.LIBRARY_DATABASE_URL}\`);
  appendFileSync(config.LIBRARY_SETUP_LOG, \`setup \${tools.mode} \${config.LIBRARY_PAGE_SIZE}\\n\`);
  return { pageSize: config.LIBRARY_PAGE_SIZE, mode: tools.mode, log: config.LIBRARY_SETUP_LOG };
}

export async function teardown(services: Services): Promise<void> {
  appendFileSync(services.log, 'teardown\\n');
}
`,
  'src/handlers/tools/page_size.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const pageSizeHandler: ToolHandler<'page_size'> = async (_input, ctx) => ({
  pageSize: ctx.services.pageSize,
  mode: ctx.services.mode,
});
`,
};

const out = path.join(repoRoot, '.test-out', 'runtime-lifecycle-logs');
let entry: string;

beforeAll(() => {
  const manifestPath = path.join(repoRoot, '.test-out', 'runtime-lifecycle.yaml');
  mkdirSync(path.dirname(manifestPath), { recursive: true });
  writeFileSync(manifestPath, manifest);
  entry = generateAndCompile(manifestPath, 'runtime-lifecycle', files);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
}, 180_000);

const good = (log: string): Record<string, string> => ({
  LIBRARY_DATABASE_URL: 'postgres://user:pw@127.0.0.1/library',
  LIBRARY_PAGE_SIZE: '50',
  LIBRARY_SETUP_LOG: path.join(out, log),
});

describe('configuration checked at start', () => {
  for (const args of [[], ['--transport', 'http', '--port', '0']]) {
    it(`names every missing required variable, exit 1 (${args.length === 0 ? 'stdio' : 'http'})`, () => {
      const { status, stderr } = runToExit(entry, args, {});
      expect(status).toBe(1);
      expect(stderr).toBe(
        'library: the environment is missing or has invalid configuration (2); see .env.example:\n' +
          '  LIBRARY_DATABASE_URL is required and not set\n' +
          '  LIBRARY_SETUP_LOG is required and not set\n',
      );
    });
  }

  it('lists every invalid value, never printing a secret one nor a URL that does not parse', () => {
    const { status, stderr } = runToExit(entry, [], {
      ...good('invalid.log'),
      LIBRARY_DATABASE_URL: 'hunter2 is no url',
      LIBRARY_API_URL: 'postgres//reader:PASS@db',
      LIBRARY_PAGE_SIZE: 'abc',
      LIBRARY_FAIL: 'maybe',
    });
    expect(status).toBe(1);
    expect(stderr).toBe(
      'library: the environment is missing or has invalid configuration (4); see .env.example:\n' +
        '  LIBRARY_API_URL must be a URL, got a value that does not parse (not shown: it may hold a password)\n' +
        '  LIBRARY_DATABASE_URL must be a URL, got a secret value (not shown)\n' +
        '  LIBRARY_FAIL must be true, false, 1 or 0, got "maybe"\n' +
        '  LIBRARY_PAGE_SIZE must be an integer, got "abc"\n',
    );
  });

  it('takes an MCPB field the desktop host left blank (passed on as its literal placeholder) as unset', async () => {
    const blank = (key: string) => `\${user_config.${key}}`;
    const missing = runToExit(entry, [], { ...good('blank.log'), LIBRARY_DATABASE_URL: blank('library_database_url') });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      'library: the environment is missing or has invalid configuration (1); see .env.example:\n' +
        '  LIBRARY_DATABASE_URL is required and not set\n',
    );
    // An optional one gets its default, as when it is not set at all.
    const server = startRawStdio(entry, {
      ...good('blank.log'),
      LIBRARY_PAGE_SIZE: blank('library_page_size'),
      LIBRARY_API_URL: blank('library_api_url'),
    });
    const answer = await server.request({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'page_size', arguments: {}, _meta: envelope() },
    });
    expect((answer.result as { structuredContent: unknown }).structuredContent).toEqual({
      pageSize: 20,
      mode: 'serve',
    });
    expect(await server.close()).toBe(0);
  }, 60_000);

  it('stops with "setup failed" and exit 1 when setup throws, before serving anything', () => {
    const { status, stderr } = runToExit(entry, [], { ...good('failed.log'), LIBRARY_FAIL: 'true' });
    expect(status).toBe(1);
    // The database URL is a secret: the setup error that echoes it shows `***`.
    expect(stderr.split('\n')[0]).toBe('library: setup failed: cannot reach the database at ***');
    expect(stderr).toMatch(/\n {4}at (Module\.)?setup \(.*setup\.js:\d+:\d+\)/);
  });
});

describe('setup, services and teardown', () => {
  it('stdio: setup once, ctx.services in a lazily loaded handler, teardown once on stdin EOF', async () => {
    const server = startRawStdio(entry, good('stdio.log'));
    const answer = await server.request({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'page_size', arguments: {}, _meta: envelope() },
    });
    expect((answer.result as { structuredContent: unknown }).structuredContent).toEqual({
      pageSize: 50,
      mode: 'serve',
    });
    expect(await server.close()).toBe(0);
    expect(readFileSync(path.join(out, 'stdio.log'), 'utf8')).toBe('setup serve 50\nteardown\n');
  }, 60_000);

  it('http: setup once in test mode (MCP_GEN_TEST_MODE=1), defaults applied, teardown once on SIGTERM', async () => {
    const { LIBRARY_PAGE_SIZE: _, ...env } = good('http.log');
    const server = await startHttpServer(entry, { ...env, MCP_GEN_TEST_MODE: '1' });
    for (const id of [1, 2]) {
      const answer = await rpc(
        server.url,
        'tools/call',
        { name: 'page_size', arguments: {}, _meta: envelope() },
        undefined,
        id,
      );
      expect(answer.body.result.structuredContent).toEqual({ pageSize: 20, mode: 'test' });
    }
    await server.stop();
    expect(server.child.exitCode).toBe(0);
    expect(readFileSync(path.join(out, 'http.log'), 'utf8')).toBe('setup test 20\nteardown\n');
  }, 60_000);
});
