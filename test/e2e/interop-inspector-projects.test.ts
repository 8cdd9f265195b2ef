import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProject } from '../support/servers.js';
import { inspectorCli, installInterop, node22, versions } from '../integration/protocol/interop-support.js';
import { repoRoot, startHttp, type HttpChild } from '../integration/protocol/support.js';
import { home, run } from './interop-rows.js';

// The MCP Inspector CLI (docs/interop.md), in its default era on Node 22, against the projects a user starts
// from: a fresh `mcp-gen init --transport both` project over stdio and HTTP, and examples/demo over stdio.

beforeAll(() => {
  installInterop();
  mkdirSync(home, { recursive: true });
}, 600_000);

describe(`MCP Inspector CLI ${versions.inspector}, default era, on a fresh mcp-gen init project`, () => {
  const project = path.join(repoRoot, '.test-out', 'interop-init');
  let main = '';
  let server: HttpChild;

  beforeAll(async () => {
    rmSync(project, { recursive: true, force: true });
    await run(
      process.execPath,
      [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'init', project, '--transport', 'both', '--yes'],
      { timeout: 120_000 },
    );
    // What a user writes first: the starting tool's handler.
    writeFileSync(
      path.join(project, 'src', 'handlers', 'tools', 'hello.ts'),
      "import type { ToolHandler } from '../../generated/index.gen.js';\n" +
        "\nexport const helloHandler: ToolHandler<'hello'> = async (input) " +
        `=> ({ greeting: \`Hello, \${input.name}!\` });\n`,
    );
    await run(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', path.join(project, 'tsconfig.json')], {
      timeout: 180_000,
    });
    main = path.join(project, 'dist', 'src', 'main.js');
    server = await startHttp(main, {});
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
  });

  for (const transport of ['stdio', 'HTTP'] as const) {
    it(`lists and calls its tools over ${transport}`, async () => {
      const target =
        transport === 'HTTP'
          ? { before: ['--server-url', server.url.href], after: [] }
          : { before: [], after: [process.execPath, main] };
      const cli = async (args: readonly string[]): Promise<any> => {
        const { stdout } = await run(
          node22,
          [inspectorCli, '--cli', ...target.before, '--format', 'json', ...args, ...target.after],
          { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 },
        );
        return (JSON.parse(stdout.split('\n')[0] ?? 'null') as { result: unknown }).result;
      };
      expect((await cli(['--method', 'tools/list'])).tools.map((tool: { name: string }) => tool.name)).toEqual([
        'hello',
      ]);
      expect(
        (await cli(['--method', 'tools/call', '--tool-name', 'hello', '--tool-args-json', '{"name":"Ada"}']))
          .structuredContent,
      ).toEqual({ greeting: 'Hello, Ada!' });
    }, 120_000);
  }
});

describe(`MCP Inspector CLI ${versions.inspector}, default era, on examples/demo`, () => {
  it('lists its tools and calls add over stdio', async () => {
    const demo = compileProject(
      path.join(repoRoot, 'examples', 'demo'),
      path.join(repoRoot, '.test-out', 'interop-demo'),
    );
    const cli = async (args: readonly string[]): Promise<any> => {
      const { stdout } = await run(
        node22,
        [inspectorCli, '--cli', '--format', 'json', ...args, process.execPath, demo],
        { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 },
      );
      return (JSON.parse(stdout.split('\n')[0] ?? 'null') as { result: unknown }).result;
    };
    expect((await cli(['--method', 'tools/list'])).tools.map((tool: { name: string }) => tool.name)).toEqual(['add']);
    expect(
      (await cli(['--method', 'tools/call', '--tool-name', 'add', '--tool-args-json', '{"a":40,"b":2}']))
        .structuredContent,
    ).toEqual({ sum: 42 });
  }, 240_000);
});
