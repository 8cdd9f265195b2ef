import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideInBrowser, openBrowser } from '../support/approval-browser.js';
import {
  inspectorCli,
  installInterop,
  interopHarness,
  node22,
  versions,
} from '../integration/protocol/interop-support.js';
import { buildProto, protoKeys, repoRoot, runsIn, startHttp, type HttpChild } from '../integration/protocol/support.js';

// Approval in clients that cannot show an elicitation form: LangChain's MCP adapters and OpenAI's Agents SDK (over
// stdio and HTTP) and the MCP Inspector CLI (over HTTP), each a real npm package against the generated proto server.
// The destructive remove_note answers with the approval page's link; headless Chromium opens it, checks the call and
// decides; the repeated call runs the handler exactly once after Approve, never after Decline.

const calls = path.join(repoRoot, '.test-out', 'approval-clients-calls.log');
const home = path.join(repoRoot, '.test-out', 'approval-clients-home');
const run = promisify(execFile);
const modules = path.join(interopHarness, 'node_modules');
const load = (file: string): Promise<any> => import(pathToFileURL(path.join(modules, file)).href);

/** What the tests do with a client: call remove_note, and say what the model was told. */
interface Caller {
  /** The text of the answer (an error's message for a client that throws on isError) and whether it is an error. */
  remove(id: string): Promise<{ readonly text: string; readonly isError: boolean }>;
  close(): Promise<void>;
}

interface Row {
  readonly client: string;
  readonly transport: 'stdio' | 'HTTP';
  connect(): Promise<Caller>;
}

let entry = '';
let http: HttpChild;
let browser: Browser;
const serverEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', ...protoKeys, PROTO_CALLS: calls });

function langchainRow(transport: 'stdio' | 'HTTP'): Row {
  return {
    client: '@langchain/mcp-adapters 1.1.4 (MultiServerMCPClient)',
    transport,
    async connect() {
      const { MultiServerMCPClient } = await load('@langchain/mcp-adapters/dist/index.js');
      const server =
        transport === 'HTTP'
          ? { transport: 'http', url: http.url.href }
          : { transport: 'stdio', command: process.execPath, args: [entry], env: serverEnv() };
      const client = new MultiServerMCPClient({ mcpServers: { proto: server } });
      const tools: { name: string; invoke(args: unknown): Promise<unknown> }[] = await client.getTools();
      const remove = tools.find((tool) => tool.name === 'remove_note');
      if (remove === undefined) throw new Error(`no remove_note among ${tools.map((t) => t.name).join(', ')}`);
      return {
        // LangChain turns an isError result into a ToolException, which its agents hand the model as the tool's
        // message.
        remove: (id) =>
          remove.invoke({ id }).then(
            (out) => ({ text: typeof out === 'string' ? out : JSON.stringify(out), isError: false }),
            (error: Error) => ({ text: error.message, isError: true }),
          ),
        close: () => client.close(),
      };
    },
  };
}

function openaiRow(transport: 'stdio' | 'HTTP'): Row {
  return {
    client: '@openai/agents-core 0.20.0 (MCPServerStdio / MCPServerStreamableHttp)',
    transport,
    async connect() {
      const agents = await load('@openai/agents-core/dist/index.mjs');
      const server =
        transport === 'HTTP'
          ? new agents.MCPServerStreamableHttp({ url: http.url.href, name: 'proto' })
          : new agents.MCPServerStdio({ command: process.execPath, args: [entry], env: serverEnv(), name: 'proto' });
      await server.connect();
      return {
        remove: async (id) => {
          const result = await server.callToolResult('remove_note', { id });
          return { text: result.content?.[0]?.text ?? '', isError: result.isError === true };
        },
        close: () => server.close(),
      };
    },
  };
}

function inspectorRow(): Row {
  return {
    client: `MCP Inspector CLI ${versions.inspector} (--cli, one process per call)`,
    transport: 'HTTP',
    async connect() {
      return {
        remove: async (id) => {
          const args = ['--method', 'tools/call', '--tool-name', 'remove_note', '--tool-args-json', `{"id":"${id}"}`];
          const child = await run(
            node22,
            [inspectorCli, '--cli', '--server-url', http.url.href, '--format', 'json', ...args],
            { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 },
          ).catch((error: { code?: number; stdout?: string }) => {
            // A tool result with isError exits 5 and still prints the result.
            if (error.code === 5 && error.stdout !== undefined) return { stdout: error.stdout };
            throw error;
          });
          const result = (JSON.parse(child.stdout.split('\n')[0] ?? 'null') as { result: any }).result;
          return { text: result.content?.[0]?.text ?? '', isError: result.isError === true };
        },
        close: async () => {},
      };
    },
  };
}

/** The approval link in what the model was told. */
function linkIn(answer: { text: string; isError: boolean }): string {
  expect(answer.isError).toBe(true);
  const link = /open (http:\/\/127\.0\.0\.1:\d+\/approvals\/[A-Za-z0-9_-]{22}) ,/.exec(answer.text)?.[1];
  expect(link, answer.text).toBeDefined();
  return link ?? '';
}

const removals = (id: string): string[] => runsIn(calls).filter((line) => line === `remove_note ${id}`);

beforeAll(async () => {
  installInterop();
  entry = buildProto();
  rmSync(calls, { force: true });
  mkdirSync(home, { recursive: true });
  http = await startHttp(entry, { ...protoKeys, PROTO_CALLS: calls });
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await http?.stop();
});

const rows: readonly Row[] = [
  langchainRow('stdio'),
  langchainRow('HTTP'),
  openaiRow('stdio'),
  openaiRow('HTTP'),
  inspectorRow(),
];

describe.each(rows.map((row, index) => [`${row.client} over ${row.transport}`, row, index] as const))(
  '%s',
  (_name, row, index) => {
    let caller: Caller;

    beforeAll(async () => {
      caller = await row.connect();
    }, 120_000);

    afterAll(async () => {
      await caller?.close();
    });

    it('gets the link; after Approve in the browser the repeat runs once, and a second repeat does not', async () => {
      const id = `client${index}-approve`;
      const link = linkIn(await caller.remove(id));
      expect(await decideInBrowser(browser, link, 'Approve', ['Remove a note (remove_note)', `"${id}"`])).toBe(
        'Approved',
      );
      expect(await caller.remove(id)).toMatchObject({ isError: false });
      expect(removals(id)).toHaveLength(1);
      expect(linkIn(await caller.remove(id))).not.toBe(link);
      expect(removals(id)).toHaveLength(1);
    }, 120_000);

    it('after Decline the repeat is refused and nothing runs', async () => {
      const id = `client${index}-decline`;
      const link = linkIn(await caller.remove(id));
      expect(await decideInBrowser(browser, link, 'Decline', [`"${id}"`])).toBe('Declined');
      const refused = await caller.remove(id);
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain(
        'The user declined "Remove a note" (remove_note) on the approval page; nothing was done.',
      );
      expect(removals(id)).toEqual([]);
    }, 120_000);
  },
);
