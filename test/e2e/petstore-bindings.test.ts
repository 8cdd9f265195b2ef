import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/import.js';
import { protocolVersion, repoRoot } from '../support/paths.js';
import { metaOf, startRawStdio, type RawStdio } from '../support/servers.js';

// Issue 23's acceptance: Petstore 3.0 (from @readme/oas-examples, installed as the documents test does) is
// imported, generated and compiled with no handler written, then every one of its 20 operations is called on a
// local mock upstream that records each request: path, query, header and body arrive where the spec puts them,
// DELETE asks for approval first, and without the credential no request leaves.

const harness = path.join(repoRoot, 'test', 'fixtures', 'import', 'openapi-documents');
const petstore = path.join(harness, 'node_modules', '@readme', 'oas-examples', '3.0', 'json', 'petstore.json');
const dir = path.join(repoRoot, '.test-out', 'petstore-bindings');
const token = 'test-access-token';
const stateKey = 'k'.repeat(40);

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}
const seen: Seen[] = [];

const pet = { id: 7, name: 'Rex', photoUrls: ['https://example.test/rex.png'], status: 'available' };
const order = { id: 3, petId: 7, quantity: 1, status: 'placed', complete: false };
const user = { id: 1, username: 'ana', email: 'ana@example.test' };

/** The mock API's answers, by method and path. */
function answer(method: string, pathname: string): { status: number; body: unknown } {
  if (pathname === '/v2/pet/findByStatus' || pathname === '/v2/pet/findByTags') return { status: 200, body: [pet] };
  if (pathname === '/v2/pet/404') return { status: 404, body: { code: 1, type: 'error', message: 'Pet not found' } };
  if (pathname === '/v2/pet/500') return { status: 500, body: { message: 'boom' } };
  if (/^\/v2\/pet\/\d+\/uploadImage$/.test(pathname)) return { status: 200, body: { code: 200, message: 'ok' } };
  if (method === 'GET' && /^\/v2\/pet\/\d+$/.test(pathname)) return { status: 200, body: pet };
  if (pathname === '/v2/store/inventory') return { status: 200, body: { available: 4 } };
  if (method !== 'DELETE' && pathname.startsWith('/v2/store/order')) return { status: 200, body: order };
  if (pathname === '/v2/user/login') return { status: 200, body: 'session-1' };
  if (method === 'GET' && pathname === '/v2/user/ana') return { status: 200, body: user };
  return { status: 200, body: {} };
}

let upstream: Server;
let base = '';
let entry = '';

beforeAll(async () => {
  if (!existsSync(path.join(harness, 'node_modules', '.package-lock.json'))) {
    const npm = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: harness,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (npm.status !== 0) throw new Error(`npm ci in ${harness} failed:\n${npm.stdout}${npm.stderr}`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const imported = await importOpenApi(petstore, { out: 'mcp.yaml', force: false, cwd: dir });
  expect(imported.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const generate = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'mcp-gen.js'), 'generate', 'mcp.yaml'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(generate.status, generate.stderr).toBe(0);
  const tsc = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(tsc.stdout).toBe('');
  entry = path.join(dir, 'dist', 'src', 'main.js');
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      seen.push({
        method: request.method ?? '',
        url: url.pathname + url.search,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const { status, body } = answer(request.method ?? '', url.pathname);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v2`;
}, 900_000);

afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
});

/** A server with the mock as upstream, and the token unless `withToken` is false. */
function start(withToken = true): RawStdio {
  return startRawStdio(entry, {
    SWAGGER_PETSTORE_BASE_URL: base,
    SWAGGER_PETSTORE_STATE_KEY: stateKey,
    ...(withToken ? { SWAGGER_PETSTORE_TOKEN: token } : {}),
  });
}

let id = 0;
/** tools/call; a tool that asks for approval is answered yes on the retry. Returns the result and the rounds. */
async function call(server: RawStdio, name: string, args: Record<string, unknown>) {
  const params = { name, arguments: args, _meta: metaOf(protocolVersion, { elicitation: { form: {} } }) };
  const first = (await server.request({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params })) as {
    result: Record<string, unknown>;
  };
  if (first.result?.resultType !== 'input_required') return { result: first.result ?? first, asked: false, before: 0 };
  const before = seen.length;
  const retry = (await server.request({
    jsonrpc: '2.0',
    id: ++id,
    method: 'tools/call',
    params: {
      ...params,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: first.result.requestState,
    },
  })) as { result: Record<string, unknown> };
  // A JSON-RPC error shows in the assertion that reads `result`.
  return { result: retry.result ?? retry, asked: true, before };
}

/** Each operation: the tool, its arguments, and the request the mock must see. */
const operations: readonly [string, Record<string, unknown>, string, string, string][] = [
  ['add_pet', { body: pet }, 'POST', '/v2/pet', JSON.stringify(pet)],
  ['update_pet', { body: pet }, 'PUT', '/v2/pet', JSON.stringify(pet)],
  [
    'find_pets_by_status',
    { status: ['available', 'sold'] },
    'GET',
    '/v2/pet/findByStatus?status=available&status=sold',
    '',
  ],
  ['find_pets_by_tags', { tags: ['cute'] }, 'GET', '/v2/pet/findByTags?tags=cute', ''],
  ['get_pet_by_id', { petId: 7 }, 'GET', '/v2/pet/7', ''],
  [
    'update_pet_with_form',
    { petId: 7, body: { name: 'Rex II', status: 'sold' } },
    'POST',
    '/v2/pet/7',
    'name=Rex+II&status=sold',
  ],
  ['delete_pet', { petId: 7, api_key: 'key-9' }, 'DELETE', '/v2/pet/7', ''],
  [
    'upload_file',
    { petId: 7, body: { additionalMetadata: 'side' } },
    'POST',
    '/v2/pet/7/uploadImage',
    'additionalMetadata=side',
  ],
  ['get_inventory', {}, 'GET', '/v2/store/inventory', ''],
  ['create_place_order', { body: order }, 'POST', '/v2/store/order', JSON.stringify(order)],
  ['get_order_by_id', { orderId: 3 }, 'GET', '/v2/store/order/3', ''],
  ['delete_order', { orderId: 3 }, 'DELETE', '/v2/store/order/3', ''],
  ['create_user', { body: user }, 'POST', '/v2/user', JSON.stringify(user)],
  ['create_users_with_array_input', { body: [user] }, 'POST', '/v2/user/createWithArray', JSON.stringify([user])],
  ['create_users_with_list_input', { body: [user] }, 'POST', '/v2/user/createWithList', JSON.stringify([user])],
  ['list_login_user', { username: 'ana', password: 'p w' }, 'GET', '/v2/user/login?password=p+w&username=ana', ''],
  ['list_logout_user', {}, 'GET', '/v2/user/logout', ''],
  ['get_user_by_name', { username: 'ana' }, 'GET', '/v2/user/ana', ''],
  ['update_user', { username: 'ana', body: user }, 'PUT', '/v2/user/ana', JSON.stringify(user)],
  ['delete_user', { username: 'ana' }, 'DELETE', '/v2/user/ana', ''],
];

describe('Petstore: import, generate, and every operation answered by the upstream with no handler written', () => {
  it('writes no handler file', () => {
    expect(existsSync(path.join(dir, 'src', 'handlers')) ? readdirSync(path.join(dir, 'src', 'handlers')) : []).toEqual(
      [],
    );
  });

  it('answers all 20 operations from the mock, each request where the spec puts it', async () => {
    const server = start();
    try {
      for (const [name, args, method, url, body] of operations) {
        const at = seen.length;
        const { result, asked, before } = await call(server, name, args);
        expect({ name, result: result.isError === undefined && 'content' in result ? 'ok' : result }).toEqual({
          name,
          result: 'ok',
        });
        expect(seen.length).toBe(at + 1);
        const request = seen[at] as Seen;
        expect({ name, method: request.method, url: request.url, body: request.body }).toEqual({
          name,
          method,
          url,
          body,
        });
        expect(request.headers.authorization).toBe(`Bearer ${token}`);
        // Approval comes first: nothing reached the upstream before the user said yes.
        if (asked) expect(before).toBe(at);
        if (method === 'DELETE') expect(asked).toBe(true);
        if (name === 'delete_pet') expect(request.headers.api_key).toBe('key-9');
        if (body !== '')
          expect(request.headers['content-type']).toBe(
            body.startsWith('{') || body.startsWith('[') ? 'application/json' : 'application/x-www-form-urlencoded',
          );
      }
      expect((await call(server, 'get_pet_by_id', { petId: 7 })).result.structuredContent).toEqual(pet);
      expect(
        (await call(server, 'list_login_user', { username: 'ana', password: 'x' })).result.structuredContent,
      ).toEqual({
        result: 'session-1',
      });
    } finally {
      await server.close();
    }
  }, 300_000);

  it('maps 4xx to a tool error with the status and message, 5xx to a retryable one', async () => {
    const server = start();
    try {
      const missing = await call(server, 'get_pet_by_id', { petId: 404 });
      expect(missing.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'The upstream API refused the call (HTTP 404): "Pet not found"' }],
      });
      const failed = await call(server, 'get_pet_by_id', { petId: 500 });
      expect(failed.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'The upstream API failed (HTTP 500); retry later.' }],
      });
    } finally {
      await server.close();
    }
  }, 120_000);

  it('without the credential: no request leaves and the call is a clear tool error', async () => {
    const server = start(false);
    try {
      const at = seen.length;
      const { result } = await call(server, 'get_pet_by_id', { petId: 7 });
      expect(result).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: 'The upstream credential is not configured: set SWAGGER_PETSTORE_TOKEN in the environment.',
          },
        ],
      });
      expect(seen.length).toBe(at);
    } finally {
      await server.close();
    }
  }, 120_000);
});
