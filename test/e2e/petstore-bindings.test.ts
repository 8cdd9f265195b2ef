import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, connectStdioClient, startHttpServer } from '../integration/runtime/harness.js';
import { runCommand } from '../support/commands.js';
import { installOpenApiDocuments, openApiDocuments } from '../support/openapi-documents.js';
import { repoRoot } from '../support/paths.js';
import type { Elicitor } from '../support/servers.js';
import { answer, apiKeyOnly, contentType, operations, pet, petstoreAuth, stateKey } from './petstore-operations.js';

// Issue 23's acceptance, step by step as a user runs it: `mcp-gen import openapi` on Petstore 3.0 (from
// @readme/oas-examples, installed as the documents test does), `mcp-gen generate`, `npm install` (mcp-gen by the
// relative `file:` spec generate writes, everything else from the registry), `npm run build`, then `node
// dist/server.mjs` with only PATH and the config variables in its environment, spoken to by the SDK's client over
// stdio. Every one of the 20 operations is answered by a local mock upstream that records each request (path,
// query, header and body where the spec puts them), with no handler written; every write asks for approval
// before any request leaves; without the credential no request leaves and the call is a clear tool error. Then
// the user adds an HTTP transport to the manifest, regenerates, rebuilds, and one call goes over HTTP.

const petstore = path.join(openApiDocuments, 'node_modules', '@readme', 'oas-examples', '3.0', 'json', 'petstore.json');
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gen-e2e-petstore-')));
const dir = path.join(root, 'petstore');
const entry = path.join(dir, 'dist', 'server.mjs');
const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
const token = 'test-access-token';
const apiKey = 'key-9';
/** The spec's security per operation: api_key alone on these, none on store and user, petstore_auth on the rest. */
/** A command in the project folder, npm preferring its cache (the registry is the only network). */
const run = (command: string, args: string[], timeout = 300_000) =>
  runCommand(command, args, dir, { timeout, env: { npm_config_prefer_offline: 'true' } });

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** The parts of a multipart/form-data body, parsed; null for any other body. */
  readonly parts: [string, string][] | null;
}
const seen: Seen[] = [];

let upstream: Server;
let base = '';

beforeAll(async () => {
  installOpenApiDocuments();
  mkdirSync(dir, { recursive: true });
  const imported = run(process.execPath, [cli, 'import', 'openapi', petstore, '--out', 'mcp.yaml']);
  expect(imported.code, imported.output).toBe(0);
  const generated = run(process.execPath, [cli, 'generate', 'mcp.yaml']);
  expect(generated.code, generated.output).toBe(0);
  const install = run('npm', ['install'], 600_000);
  expect(install.code, install.output).toBe(0);
  const build = run('npm', ['run', 'build']);
  expect(build.code, build.output).toBe(0);
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      const type = request.headers['content-type'] ?? '';
      // A file part as "<file name>:<type>:<bytes in hex>".
      const text = async (v: FormDataEntryValue) =>
        typeof v === 'string' ? v : `${v.name}:${v.type}:${Buffer.from(await v.arrayBuffer()).toString('hex')}`;
      const parts = type.startsWith('multipart/form-data')
        ? await Promise.all(
            [...(await new Response(bytes, { headers: { 'content-type': type } }).formData()).entries()].map(
              async ([k, v]): Promise<[string, string]> => [k, await text(v)],
            ),
          )
        : null;
      seen.push({
        method: request.method ?? '',
        url: url.pathname + url.search,
        headers: request.headers,
        body,
        parts,
      });
      const { status, body: answered } = answer(request.method ?? '', url.pathname);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answered));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v2`;
}, 1_200_000);

afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(root, { recursive: true, force: true });
}, 120_000);

/** The server's environment: PATH and the config variables, the credentials unless `withCredentials` is false. */
function environment(withCredentials = true): Record<string, string> {
  return {
    SWAGGER_PETSTORE_BASE_URL: base,
    SWAGGER_PETSTORE_STATE_KEY: stateKey,
    ...(withCredentials
      ? { SWAGGER_PETSTORE_TOKEN: token, SWAGGER_PETSTORE_API_KEY: apiKey, SWAGGER_PETSTORE_PASSWORD: 'p w' }
      : {}),
  };
}

/** The SDK's client on `node dist/server.mjs` over stdio; each approval it is asked is recorded and accepted. */
const connectStdio = (elicitor: Elicitor, withToken = true): Promise<Client> =>
  connectStdioClient(entry, environment(withToken), elicitor);

describe('Petstore: import openapi, generate, npm install, npm run build, and every operation answered', () => {
  it('the project has no handler file and builds the bundle a host runs', () => {
    expect(existsSync(path.join(dir, 'src', 'handlers')) ? readdirSync(path.join(dir, 'src', 'handlers')) : []).toEqual(
      [],
    );
    expect(existsSync(entry)).toBe(true);
  });

  it('answers all 20 operations from the mock over stdio, each request where the spec puts it', async () => {
    // Each ask records how many requests had reached the upstream when the user was asked.
    const asked: { tool: string; requestsBefore: number }[] = [];
    let current = '';
    const elicitor: Elicitor = {
      answer: { action: 'accept', content: { confirm: true } },
      seen: [],
      onAsk: () => asked.push({ tool: current, requestsBefore: seen.length }),
    };
    const client = await connectStdio(elicitor);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name).sort()).toEqual(operations.map(([name]) => name).sort());
      const requestsAt: Record<string, number> = {};
      for (const [name, args, method, url, body] of operations) {
        current = name;
        const at = seen.length;
        requestsAt[name] = at;
        const result = await client.callTool({ name, arguments: args });
        expect({ name, isError: result.isError }).toEqual({ name, isError: undefined });
        expect(seen.length, name).toBe(at + 1);
        const request = seen[at] as Seen;
        expect({ name, method: request.method, url: request.url }).toEqual({ name, method, url });
        if (typeof body === 'string') expect({ name, body: request.body }).toEqual({ name, body });
        else expect({ name, parts: request.parts }).toEqual({ name, parts: body.parts });
        // Each request carries exactly the credentials its operation's security names, none for a public one.
        expect({ name, authorization: request.headers.authorization, apiKey: request.headers.api_key }).toEqual({
          name,
          authorization: petstoreAuth.has(name) ? `Bearer ${token}` : undefined,
          apiKey: apiKeyOnly.has(name) || name === 'delete_pet' ? apiKey : undefined,
        });
        expect(request.headers['content-type']?.split(';')[0]).toBe(contentType(body));
      }
      // Every write asked once, before its request left: nothing had reached the upstream for it yet.
      const writes = operations.filter(([, , method]) => method !== 'GET').map(([name]) => name);
      expect(asked.map((a) => a.tool)).toEqual(writes);
      expect(asked.map((a) => a.requestsBefore)).toEqual(writes.map((name) => requestsAt[name]));
      expect(asked.filter((a) => a.tool.startsWith('delete_')).map((a) => a.tool)).toEqual([
        'delete_pet',
        'delete_order',
        'delete_user',
      ]);
      expect((await client.callTool({ name: 'get_pet_by_id', arguments: { petId: 7 } })).structuredContent).toEqual(
        pet,
      );
      const login = await client.callTool({ name: 'list_login_user', arguments: { username: 'ana' } });
      expect(login.structuredContent).toEqual({ result: 'session-1' });
    } finally {
      await client.close();
    }
  }, 300_000);

  it('maps 4xx to a tool error with the status and message, 5xx to one marked retryable in _meta', async () => {
    const client = await connectStdio({ answer: { action: 'accept' }, seen: [] });
    try {
      // The SDK adds serverInfo to every result's _meta; the error flag sits beside it under mcp-gen's own key.
      const shape = (r: Awaited<ReturnType<Client['callTool']>>) => ({
        isError: r.isError,
        content: r.content,
        error: (r._meta as Record<string, unknown> | undefined)?.['mcp-gen/error'],
      });
      const missing = await client.callTool({ name: 'get_pet_by_id', arguments: { petId: 404 } });
      expect(shape(missing)).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'The upstream API refused the call (HTTP 404): "Pet not found"' }],
        error: undefined,
      });
      const failed = await client.callTool({ name: 'get_pet_by_id', arguments: { petId: 500 } });
      expect(shape(failed)).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'The upstream API failed (HTTP 500); retry later.' }],
        error: { retryable: true },
      });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('without the credential: no request leaves and the call is a clear tool error', async () => {
    const client = await connectStdio({ answer: { action: 'accept' }, seen: [] }, false);
    try {
      const at = seen.length;
      const result = await client.callTool({ name: 'get_pet_by_id', arguments: { petId: 7 } });
      expect({ isError: result.isError, content: result.content }).toEqual({
        isError: true,
        content: [
          {
            type: 'text',
            text: 'The upstream credential is not configured: set SWAGGER_PETSTORE_API_KEY in the environment.',
          },
        ],
      });
      expect(seen.length).toBe(at);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('Petstore over HTTP: the user adds transports.http, regenerates with the installed mcp-gen, rebuilds', () => {
  it('a DELETE asks first, then reaches the upstream with its path and header', async () => {
    const manifest = path.join(dir, 'mcp.yaml');
    writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}transports:\n  stdio: {}\n  http: { host: 127.0.0.1 }\n`);
    const regenerated = run('npx', ['mcp-gen', 'generate']);
    expect(regenerated.code, regenerated.output).toBe(0);
    const build = run('npm', ['run', 'build']);
    expect(build.code, build.output).toBe(0);
    const server = await startHttpServer(entry, environment());
    try {
      let requestsWhenAsked = -1;
      const elicitor: Elicitor = {
        answer: { action: 'accept', content: { confirm: true } },
        seen: [],
        onAsk: () => (requestsWhenAsked = seen.length),
      };
      const client = await connectClient(server.url, undefined, elicitor);
      try {
        const at = seen.length;
        const result = await client.callTool({ name: 'delete_pet', arguments: { petId: 9 } });
        expect(result.isError).toBeUndefined();
        expect(requestsWhenAsked).toBe(at);
        expect(seen.length).toBe(at + 1);
        const request = seen[at] as Seen;
        expect([request.method, request.url, request.headers.api_key, request.headers.authorization]).toEqual([
          'DELETE',
          '/v2/pet/9',
          apiKey,
          `Bearer ${token}`,
        ]);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  }, 600_000);
});
