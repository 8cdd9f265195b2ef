import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProject } from '../support/servers.js';
import {
  inspectorCli,
  installInterop,
  loadV1Sdk,
  node22,
  versions,
  type V1Sdk,
} from '../integration/protocol/interop-support.js';
import { buildProto, protoKeys, repoRoot, runsIn, startHttp, type HttpChild } from '../integration/protocol/support.js';

// The interoperability matrix (docs/interop.md): real client packages against a generated server
// (the proto fixture, protocol.legacy: serve, stdio and HTTP). Each row lists tools, calls a
// read-only tool, reads a resource, gets a prompt and runs an approval of the destructive
// remove_note: accepted once (the handler runs once), declined once (it never runs).

// mcp-gen itself depends on the v2 client (import and verify use it).
const v2Version = (
  JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
).dependencies['@modelcontextprotocol/client'];
const calls = path.join(repoRoot, '.test-out', 'interop-calls.log');
const home = path.join(repoRoot, '.test-out', 'interop-home');
const run = promisify(execFile);

type Action = 'accept' | 'decline';

/** What a row does with a client, whichever package it is. */
interface Connection {
  listTools(): Promise<string[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ content: unknown; structuredContent?: unknown; isError?: boolean | undefined }>;
  /** The text of the first content of the resource. */
  readResource(uri: string): Promise<string | undefined>;
  /** The text of the prompt's first message. */
  getPrompt(name: string, args: Record<string, string>): Promise<string | undefined>;
  close(): Promise<void>;
}

interface Row {
  readonly client: string;
  readonly transport: 'stdio' | 'HTTP';
  /** Connects; the client answers every elicitation with `answer.action`. */
  connect(answer: { action: Action }): Promise<Connection>;
  /** What its user sees of an approval: true when the client can answer elicitation. */
  readonly elicits: boolean;
}

let entry = '';
let http: HttpChild;
let v1: V1Sdk;
const serverEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', ...protoKeys, PROTO_CALLS: calls });

beforeAll(async () => {
  installInterop();
  v1 = await loadV1Sdk();
  entry = buildProto();
  rmSync(calls, { force: true });
  mkdirSync(home, { recursive: true });
  http = await startHttp(entry, { ...protoKeys, PROTO_CALLS: calls });
}, 600_000);

afterAll(async () => {
  await http?.stop();
});

function v2Row(mode: 'pin' | 'auto' | 'legacy', transport: 'stdio' | 'HTTP'): Row {
  const label =
    mode === 'pin'
      ? 'pinned to 2026-07-28'
      : mode === 'auto'
        ? "versionNegotiation 'auto'"
        : "default negotiation ('legacy', 2025-11-25)";
  return {
    client: `official v2 client @modelcontextprotocol/client ${v2Version}, ${label}`,
    transport,
    elicits: true,
    async connect(answer) {
      const negotiation =
        mode === 'pin'
          ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
          : mode === 'auto'
            ? { versionNegotiation: { mode: 'auto' as const } }
            : {};
      const client = new Client(
        { name: 'interop', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, ...negotiation },
      );
      client.setRequestHandler('elicitation/create', async () =>
        answer.action === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' },
      );
      await client.connect(
        transport === 'HTTP'
          ? new StreamableHTTPClientTransport(http.url)
          : new StdioClientTransport({ command: process.execPath, args: [entry], env: serverEnv(), stderr: 'ignore' }),
      );
      return {
        listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        callTool: (name, args) => client.callTool({ name, arguments: args }),
        readResource: async (uri) => {
          const first = (await client.readResource({ uri })).contents[0];
          return first !== undefined && 'text' in first ? first.text : undefined;
        },
        getPrompt: async (name, args) => {
          const first = (await client.getPrompt({ name, arguments: args })).messages[0]?.content;
          return first?.type === 'text' ? first.text : undefined;
        },
        close: () => client.close(),
      };
    },
  };
}

function v1Row(transport: 'stdio' | 'HTTP'): Row {
  return {
    client: `v1 SDK client @modelcontextprotocol/sdk ${versions.v1Sdk} (2025-11-25)`,
    transport,
    elicits: true,
    async connect(answer) {
      const client = new v1.Client({ name: 'interop', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(v1.ElicitRequestSchema, async () =>
        answer.action === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' },
      );
      await client.connect(
        transport === 'HTTP'
          ? new v1.StreamableHTTPClientTransport(http.url)
          : new v1.StdioClientTransport({
              command: process.execPath,
              args: [entry],
              env: serverEnv(),
              stderr: 'ignore',
            }),
      );
      return {
        listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        callTool: (name, args) => client.callTool({ name, arguments: args }),
        readResource: async (uri) => (await client.readResource({ uri })).contents[0]?.text,
        getPrompt: async (name, args) => (await client.getPrompt({ name, arguments: args })).messages[0]?.content.text,
        close: () => client.close(),
      };
    },
  };
}

/** One Inspector CLI run (`--cli`, default era) on Node 22: the `result` it prints as JSON. */
async function inspect(transport: 'stdio' | 'HTTP', args: readonly string[]): Promise<any> {
  // A URL goes first (--prompt-args takes every value that follows it); a command goes last, after the -e options.
  const server =
    transport === 'HTTP'
      ? { before: ['--server-url', http.url.href], after: [] }
      : {
          before: [],
          after: [
            ...Object.entries({ ...protoKeys, PROTO_CALLS: calls }).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
            process.execPath,
            entry,
          ],
        };
  const child = await run(
    node22,
    [inspectorCli, '--cli', ...server.before, '--format', 'json', ...args, ...server.after],
    { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 },
  ).catch(
    // A tool result with isError exits 5 and still prints the result on stdout.
    (error: { code?: number; stdout?: string; stderr?: string }) => {
      if (error.code === 5 && error.stdout !== undefined) return { stdout: error.stdout };
      throw new Error(`inspector ${args.join(' ')} failed: ${String(error.code)} ${error.stderr ?? ''}`);
    },
  );
  return (JSON.parse(child.stdout.split('\n')[0] ?? 'null') as { result: unknown }).result;
}

function inspectorRow(transport: 'stdio' | 'HTTP'): Row {
  return {
    client:
      `MCP Inspector CLI @modelcontextprotocol/inspector ${versions.inspector} ` +
      `--cli, default era (legacy), on Node ${versions.node22}`,
    transport,
    elicits: false,
    async connect() {
      return {
        listTools: async () =>
          ((await inspect(transport, ['--method', 'tools/list'])) as { tools: { name: string }[] }).tools.map(
            (tool) => tool.name,
          ),
        callTool: (name, args) =>
          inspect(transport, ['--method', 'tools/call', '--tool-name', name, '--tool-args-json', JSON.stringify(args)]),
        readResource: async (uri) =>
          (await inspect(transport, ['--method', 'resources/read', '--uri', uri])).contents[0]?.text,
        getPrompt: async (name, args) =>
          (
            await inspect(transport, [
              '--method',
              'prompts/get',
              '--prompt-name',
              name,
              '--prompt-args',
              ...Object.entries(args).map(([k, v]) => `${k}=${v}`),
            ])
          ).messages[0]?.content.text,
        close: async () => {},
      };
    },
  };
}

const rows: readonly Row[] = [
  v2Row('pin', 'stdio'),
  v2Row('pin', 'HTTP'),
  v2Row('auto', 'stdio'),
  v2Row('auto', 'HTTP'),
  v2Row('legacy', 'stdio'),
  v2Row('legacy', 'HTTP'),
  v1Row('stdio'),
  v1Row('HTTP'),
  inspectorRow('stdio'),
  inspectorRow('HTTP'),
];

describe.each(rows.map((row, index) => [`${row.client} over ${row.transport}`, row, index] as const))(
  '%s',
  (_name, row, index) => {
    const answer: { action: Action } = { action: 'accept' };
    let connection: Connection;

    beforeAll(async () => {
      connection = await row.connect(answer);
    }, 60_000);

    afterAll(async () => {
      await connection?.close();
    });

    it('lists tools', async () => {
      expect(await connection.listTools()).toEqual([
        'bad_output',
        'echo',
        'explode',
        'open_draft',
        'open_flash',
        'remove_note',
        'use_draft',
        'use_flash',
      ]);
    });

    it('calls a read-only tool', async () => {
      const result = await connection.callTool('echo', { text: 'hi', count: 2 });
      expect(result.structuredContent).toEqual({ text: 'hihi', count: 2 });
      expect(result.isError ?? false).toBe(false);
    });

    it('reads a resource', async () => {
      expect(await connection.readResource('proto://readme')).toBe('Read me first.');
    });

    it('gets a prompt', async () => {
      expect(await connection.getPrompt('greet', { name: 'Ada', mood: 'fine' })).toBe(
        'Say hello to Ada, who feels fine.',
      );
    });

    it(row.elicits
      ? 'approves a destructive tool: accept runs the handler once, decline never'
      : 'gets the approval page for a destructive tool (no elicitation): the handler does not run', async () => {
      const ids = { accept: `row${index}-accept`, decline: `row${index}-decline` };
      const results = [];
      for (const action of ['accept', 'decline'] as const) {
        answer.action = action;
        results.push(await connection.callTool('remove_note', { id: ids[action] }));
      }
      const runs = runsIn(calls).filter((line) => line.startsWith('remove_note') && line.includes(`row${index}-`));
      if (row.elicits) {
        expect(results.map((r) => [r.content, r.isError ?? false])).toEqual([
          [[{ type: 'text', text: `removed ${ids.accept}` }], false],
          [[{ type: 'text', text: `The user declined "Remove a note" (remove_note); nothing was done.` }], true],
        ]);
        expect(runs).toEqual([`remove_note ${ids.accept}`]);
      } else {
        // No elicitation: the answer is the approval page's link (test/e2e/approval-clients.test.ts follows it).
        for (const result of results) {
          expect(result.isError).toBe(true);
          const text = (result.content as { text: string }[])[0]?.text ?? '';
          expect(text).toMatch(/^Running "Remove a note" \(remove_note\) needs a person's approval: open http:\/\/127/);
          expect(text).toContain('/approvals/');
        }
        expect(runs).toEqual([]);
      }
    }, 120_000);
  },
);

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

describe('docs/interop.md', () => {
  it('names the exact versions the matrix runs', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs', 'interop.md'), 'utf8');
    for (const pinned of [
      `@modelcontextprotocol/client ${v2Version}`,
      `@modelcontextprotocol/sdk ${versions.v1Sdk}`,
      `@modelcontextprotocol/inspector ${versions.inspector}`,
      `@modelcontextprotocol/conformance ${versions.legacyConformance}`,
      `Node ${versions.node22}`,
    ]) {
      expect(doc).toContain(pinned);
    }
  });
});
