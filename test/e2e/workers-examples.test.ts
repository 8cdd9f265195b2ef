import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, rpc } from '../integration/runtime/harness.js';
import { runCommand } from '../support/commands.js';
import { installOpenApiDocuments, openApiDocuments } from '../support/openapi-documents.js';
import { repoRoot } from '../support/golden.js';
import { installWorkersHarness, startWrangler, type Wrangler } from './workers-support.js';

// The demo, the notes example and an imported Petstore, each with `targets: [node, workers]` added to its manifest
// (and what a Worker needs: HTTP, legacy: reject), generated as a user would and served by wrangler dev. Their own
// handlers answer; Petstore's bound tools reach a local mock upstream through the platform's fetch.

const cli = path.join(repoRoot, 'bin', 'mcp-gen.js');
/** `text` with the Workers target, legacy: reject (a Worker keeps no sessions) and, when it has none, HTTP. */
const workersManifest = (text: string): string => {
  const targeted = text
    .replace(/^mcpGen: 1$/m, 'mcpGen: 1\ntargets: [node, workers]')
    .replace(/^( {2}legacy: )serve\b.*$/m, '$1reject');
  return /^ {2}http:/m.test(targeted) ? targeted : targeted.replace(/^transports:\n/m, 'transports:\n  http: {}\n');
};

/** Copies example `name` to .test-out, adds the Workers target, and generates it; returns its folder. */
function example(name: string): string {
  const dir = path.join(repoRoot, '.test-out', `workers-example-${name}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(repoRoot, 'examples', name), dir, {
    recursive: true,
    filter: (source) => !source.includes(`${path.sep}generated`) && !source.endsWith('node_modules'),
  });
  const manifest = path.join(dir, 'mcp.yaml');
  writeFileSync(manifest, workersManifest(readFileSync(manifest, 'utf8')));
  const generated = runCommand(process.execPath, [cli, 'generate', 'mcp.yaml'], dir, { timeout: 120_000 });
  if (generated.code !== 0) throw new Error(generated.output);
  return dir;
}

const call = (worker: Wrangler, name: string, args: Record<string, unknown>, token?: string, extra = {}) =>
  rpc(worker.url, 'tools/call', { name, arguments: args, _meta: envelope(), ...extra }, token);
const list = async (worker: Wrangler, token?: string): Promise<string[]> =>
  (await rpc(worker.url, 'tools/list', { _meta: envelope() }, token)).body.result.tools.map((t: any) => t.name);

describe('the examples as Workers under wrangler dev', () => {
  const workers: Wrangler[] = [];
  let upstream: Server | undefined;
  const seen: string[] = [];

  beforeAll(() => {
    installWorkersHarness();
    installOpenApiDocuments();
  }, 600_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await new Promise((resolve) => (upstream === undefined ? resolve(undefined) : upstream.close(resolve)));
  });

  it('serves the demo: add answers 40 + 2', async () => {
    const dir = example('demo');
    const worker = await startWrangler(dir, {});
    workers.push(worker);
    expect(await list(worker)).toEqual(['add']);
    const sum = await call(worker, 'add', { a: 40, b: 2 });
    expect(sum.body.result.structuredContent).toEqual({ sum: 42 });
  }, 300_000);

  it('serves notes with bearer auth: a search, and a draft handle issued and read back across requests', async () => {
    const dir = example('notes');
    const token = 'notes-token-0123456789abcdef';
    const worker = await startWrangler(dir, {
      NOTES_TOKENS: `${token}=me:notes.read,notes.write`,
      NOTES_HANDLE_KEY: 'notes-handle-key-0123456789abcdef-0123',
      NOTES_STATE_KEY: 'notes-state-key-0123456789abcdef-01234',
    });
    workers.push(worker);
    expect((await rpc(worker.url, 'tools/list', { _meta: envelope() })).status).toBe(401);
    expect(await list(worker, token)).toEqual(['publish_note_draft', 'search_notes', 'start_note_draft']);
    const found = await call(worker, 'search_notes', { query: 'release' }, token);
    expect(found.body.result.isError).toBeUndefined();
    const started = await call(worker, 'start_note_draft', { title: 'Edge' }, token);
    const { draft } = started.body.result.structuredContent as { draft: string };
    // Publishing asks for approval first; the accepted retry carries the handle signed by the first request.
    const asked = await call(worker, 'publish_note_draft', { draft }, token);
    expect(asked.body.result.resultType).toBe('input_required');
    const accept = { confirm: { action: 'accept', content: { confirm: true } } };
    const extra = { inputResponses: accept, requestState: asked.body.result.requestState };
    const published = await call(worker, 'publish_note_draft', { draft }, token, extra);
    expect([published.body.result.isError, published.body.result.resultType]).toEqual([undefined, 'complete']);
  }, 300_000);

  it('serves an imported Petstore: its bound tools reach the upstream through the platform fetch', async () => {
    upstream = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      const pet = { id: 7, name: 'Rex', photoUrls: [], status: 'available' };
      const body = request.url?.startsWith('/v2/store/inventory')
        ? { available: 4 }
        : request.url?.includes('findBy')
          ? [pet]
          : pet;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => upstream?.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v2`;
    const dir = path.join(repoRoot, '.test-out', 'workers-example-petstore');
    rmSync(dir, { recursive: true, force: true });
    const petstore = path.join(
      openApiDocuments,
      'node_modules',
      '@readme',
      'oas-examples',
      '3.0',
      'json',
      'petstore.json',
    );
    const imported = runCommand(
      process.execPath,
      [cli, 'import', 'openapi', petstore, '--out', path.join(dir, 'mcp.yaml')],
      repoRoot,
      {
        timeout: 120_000,
      },
    );
    expect(imported.code, imported.output).toBe(0);
    const manifest = path.join(dir, 'mcp.yaml');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replace(
        /^mcpGen: 1$/m,
        'mcpGen: 1\ntargets: [node, workers]\nprotocol: { legacy: reject }\ntransports: { http: {} }',
      ),
    );
    const generated = runCommand(process.execPath, [cli, 'generate', 'mcp.yaml'], dir, { timeout: 120_000 });
    expect(generated.code, generated.output).toBe(0);
    const worker = await startWrangler(dir, {
      SWAGGER_PETSTORE_BASE_URL: base,
      SWAGGER_PETSTORE_TOKEN: 'test-access-token',
      SWAGGER_PETSTORE_API_KEY: 'key-9',
      SWAGGER_PETSTORE_STATE_KEY: 'k'.repeat(40),
    });
    workers.push(worker);
    const byId = await call(worker, 'get_pet_by_id', { petId: 7 });
    expect(byId.body.result.structuredContent ?? JSON.parse(byId.body.result.content[0].text)).toMatchObject({ id: 7 });
    const byStatus = await call(worker, 'find_pets_by_status', { status: ['available', 'sold'] });
    expect(byStatus.body.result.isError).toBeUndefined();
    const inventory = await call(worker, 'get_inventory', {});
    expect(inventory.body.result.isError).toBeUndefined();
    expect(seen).toEqual([
      'GET /v2/pet/7',
      'GET /v2/pet/findByStatus?status=available&status=sold',
      'GET /v2/store/inventory',
    ]);
    // A write asks for approval before any request leaves; accepted, it is sent once.
    const asked = await call(worker, 'delete_pet', { petId: 7 });
    expect(asked.body.result.resultType).toBe('input_required');
    expect(seen).toHaveLength(3);
    const accept = { confirm: { action: 'accept', content: { confirm: true } } };
    const done = await call(worker, 'delete_pet', { petId: 7 }, undefined, {
      inputResponses: accept,
      requestState: asked.body.result.requestState,
    });
    expect(done.body.result.isError).toBeUndefined();
    expect(seen.slice(3)).toEqual(['DELETE /v2/pet/7']);
  }, 300_000);
});
