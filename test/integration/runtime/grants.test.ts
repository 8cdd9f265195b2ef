import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedEnv, guardedHandlers, guardedManifest, tokens } from './guarded.js';
import { envelope, generateAndCompile, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// Consent by annotation (auth.grants) over real HTTP: the guarded fixture without per-tool scopes, with items.read
// granting read-only tools and items.write every tool. bob holds items.read only, carol both.

const dir = path.join(repoRoot, '.test-out', 'runtime-grants');
let server: RunningServer;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const manifest = path.join(dir, 'granted.yaml');
  const text = readFileSync(guardedManifest, 'utf8')
    .replace(/^ {4}scopes: \[.*\]\n/gm, '')
    .replace(/^( {2}scopes: .*\n)/m, '$1  grants: { items.read: readOnly, items.write: all }\n');
  writeFileSync(manifest, text);
  const entry = generateAndCompile(manifest, 'runtime-grants-project', guardedHandlers);
  server = await startHttpServer(entry, guardedEnv(path.join(dir, 'calls.log')));
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

const call = (name: string, args: Record<string, unknown>, token: string) =>
  rpc(server.url, 'tools/call', { name, arguments: args, _meta: envelope() }, token);

describe('auth.grants: scopes that admit tools by class', () => {
  it('lets a read-only scope call a read-only tool', async () => {
    const answer = await call('read_item', { id: 'a' }, tokens.bob);
    expect([answer.status, answer.body.result?.isError ?? false]).toEqual([200, false]);
  });

  it('answers a tool outside its class 403 insufficient_scope, naming the scope that admits it', async () => {
    const answer = await call('start_draft', { name: 'x' }, tokens.bob);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(answer.headers.get('www-authenticate')).toContain('scope="items.write"');
  });

  it('lets a scope of class all call a non-destructive tool', async () => {
    const answer = await call('start_draft', { name: 'x' }, tokens.carol);
    expect([answer.status, answer.body.result?.isError ?? false]).toEqual([200, false]);
  });
});
