import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { inspectorCli, node22, versions, type V1Sdk } from '../integration/protocol/interop-support.js';
import { protoKeys, repoRoot, type HttpChild } from '../integration/protocol/support.js';

// The rows of the interoperability matrix (interop-matrix.test.ts, docs/interop.md): each real client package
// connected to the proto fixture's server the same way, whichever package it is.

// mcp-gen itself depends on the v2 client (import and verify use it).
export const v2Version = (
  JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
).dependencies['@modelcontextprotocol/client'];
export const calls = path.join(repoRoot, '.test-out', 'interop-calls.log');
export const home = path.join(repoRoot, '.test-out', 'interop-home');
export const run = promisify(execFile);

export type Action = 'accept' | 'decline';

/** What a row does with a client, whichever package it is. */
export interface Connection {
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

export interface Row {
  readonly client: string;
  readonly transport: 'stdio' | 'HTTP';
  /** Connects; the client answers every elicitation with `answer.action`. */
  connect(answer: { action: Action }): Promise<Connection>;
  /** What its user sees of an approval: true when the client can answer elicitation. */
  readonly elicits: boolean;
}

/** The generated server the rows connect to, with the v1 SDK: known once the matrix has started it. */
export interface InteropServer {
  readonly entry: string;
  readonly http: HttpChild;
  readonly v1: V1Sdk;
}

const serverEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', ...protoKeys, PROTO_CALLS: calls });

function v2Row(at: () => InteropServer, mode: 'pin' | 'auto' | 'legacy', transport: 'stdio' | 'HTTP'): Row {
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
      const { entry, http } = at();
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

function v1Row(at: () => InteropServer, transport: 'stdio' | 'HTTP'): Row {
  return {
    client: `v1 SDK client @modelcontextprotocol/sdk ${versions.v1Sdk} (2025-11-25)`,
    transport,
    elicits: true,
    async connect(answer) {
      const { entry, http, v1 } = at();
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
async function inspect(at: () => InteropServer, transport: 'stdio' | 'HTTP', args: readonly string[]): Promise<any> {
  const { entry, http } = at();
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

function inspectorRow(at: () => InteropServer, transport: 'stdio' | 'HTTP'): Row {
  return {
    client:
      `MCP Inspector CLI @modelcontextprotocol/inspector ${versions.inspector} ` +
      `--cli, default era (legacy), on Node ${versions.node22}`,
    transport,
    elicits: false,
    async connect() {
      return {
        listTools: async () =>
          ((await inspect(at, transport, ['--method', 'tools/list'])) as { tools: { name: string }[] }).tools.map(
            (tool) => tool.name,
          ),
        callTool: (name, args) =>
          inspect(at, transport, [
            '--method',
            'tools/call',
            '--tool-name',
            name,
            '--tool-args-json',
            JSON.stringify(args),
          ]),
        readResource: async (uri) =>
          (await inspect(at, transport, ['--method', 'resources/read', '--uri', uri])).contents[0]?.text,
        getPrompt: async (name, args) =>
          (
            await inspect(at, transport, [
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

/** The matrix's rows, connecting to the server `at` returns. */
export const matrixRows = (at: () => InteropServer): readonly Row[] => [
  v2Row(at, 'pin', 'stdio'),
  v2Row(at, 'pin', 'HTTP'),
  v2Row(at, 'auto', 'stdio'),
  v2Row(at, 'auto', 'HTTP'),
  v2Row(at, 'legacy', 'stdio'),
  v2Row(at, 'legacy', 'HTTP'),
  v1Row(at, 'stdio'),
  v1Row(at, 'HTTP'),
  inspectorRow(at, 'stdio'),
  inspectorRow(at, 'HTTP'),
];
