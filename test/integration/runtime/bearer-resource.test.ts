import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedEnv, guardedHandlers, guardedManifest, tokens } from './guarded.js';
import {
  generateAndCompile,
  envelope,
  get,
  repoRoot,
  requestWithHost,
  rpc,
  startHttpServer,
  type RunningServer,
} from './harness.js';

// Bearer auth behind a TLS-terminating proxy: with auth.resource set, the protected-resource metadata,
// its path and every challenge name the configured public URL, never the Host header the request
// arrived with. Without it (bearer.test.ts) they name where the server listens.

const publicUrl = 'https://mcp.example.com/team/mcp';
const publicMetadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/team/mcp';
let server: RunningServer;

beforeAll(async () => {
  // The guarded fixture with one line added under auth, and its handlers.
  const manifest = readFileSync(guardedManifest, 'utf8').replace(
    '  tokensEnv: GUARDED_TOKENS\n',
    `  tokensEnv: GUARDED_TOKENS\n  resource: ${publicUrl}\n`,
  );
  expect(manifest).toContain(`resource: ${publicUrl}`);
  const manifestPath = path.join(repoRoot, '.test-out', 'runtime-bearer-resource.yaml');
  mkdirSync(path.dirname(manifestPath), { recursive: true });
  writeFileSync(manifestPath, manifest);
  const entry = generateAndCompile(manifestPath, 'runtime-bearer-resource', guardedHandlers);
  server = await startHttpServer(
    entry,
    guardedEnv(path.join(repoRoot, '.test-out', 'runtime-bearer-resource', 'calls.log')),
  );
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe('bearer authorization with a configured resource URL', () => {
  it('challenges with the metadata URL of the public resource, whatever the Host header says', async () => {
    const answer = await rpc(server.url, 'tools/list', { _meta: envelope() });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${publicMetadata}"`);
  });

  it('serves the metadata at the public resource path, naming the public URL', async () => {
    const local = new URL('/.well-known/oauth-protected-resource/team/mcp', server.url);
    const metadata = await get(local);
    expect(metadata.status).toBe(200);
    expect(metadata.body).toEqual({
      resource: publicUrl,
      scopes_supported: ['items.read', 'items.write'],
      bearer_methods_supported: ['header'],
    });
    expect((await get(new URL('/.well-known/oauth-protected-resource/mcp', server.url))).status).toBe(404);
  });

  it('names the configured URL whatever allowed Host a client sends, and refuses one with userinfo', async () => {
    const metadataPath = new URL('/.well-known/oauth-protected-resource/team/mcp', server.url);
    const spoofed = await requestWithHost(metadataPath, 'localhost:1');
    expect([spoofed.status, JSON.parse(spoofed.text).resource]).toEqual([200, publicUrl]);
    const challenged = await requestWithHost(server.url, 'localhost:1', '{}');
    expect([challenged.status, challenged.headers['www-authenticate']]).toEqual([
      401,
      `Bearer resource_metadata="${publicMetadata}"`,
    ]);
    expect((await requestWithHost(metadataPath, 'localhost:1@evil.com')).status).toBe(400);
  });

  it('still serves the MCP endpoint at its own path to a valid token', async () => {
    const answer = await rpc(
      server.url,
      'tools/call',
      { name: 'read_item', arguments: { id: 'x1' }, _meta: envelope() },
      tokens.bob,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result.content).toEqual([{ type: 'text', text: 'item x1 read by bob with scopes items.read' }]);
  });
});
