import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedEnv, guardedHandlers, guardedManifest, tokens } from './guarded.js';
import { envelope, generateAndCompile, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// approvals.ttl: an approval past its expiry is refused, on the page and in-band. The guarded fixture with
// `approvals: { ttl: 3s }`; each test waits the three seconds out on purpose (long enough for a busy machine).

const dir = path.join(repoRoot, '.test-out', 'runtime-approval-expiry');
const calls = path.join(dir, 'calls.log');
const runs = (): number => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').length : 0);
const pastExpiry = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 3_500));
let server: RunningServer;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  rmSync(calls, { force: true });
  const manifest = path.join(dir, 'expiring.yaml');
  writeFileSync(manifest, `${readFileSync(guardedManifest, 'utf8')}approvals: { ttl: 3s }\n`);
  const entry = generateAndCompile(manifest, 'runtime-approval-expiry-project', guardedHandlers);
  server = await startHttpServer(entry, guardedEnv(calls));
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

const remove = (id: string, meta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  rpc(server.url, 'tools/call', { name: 'delete_item', arguments: { id }, _meta: meta, ...extra }, tokens.alice);

describe('an approval past approvals.ttl', () => {
  it('on the page: the link is gone, and the repeat says so with a new link; nothing runs', async () => {
    const first = (await remove('e1', envelope({}))).body.result;
    const link = String(first._meta['mcp-gen/approval'].url);
    expect((await fetch(link)).status).toBe(200);
    await pastExpiry();
    expect((await fetch(link)).status).toBe(404);
    const again = (await remove('e1', envelope({}))).body.result;
    expect(again.isError).toBe(true);
    expect(again.content[0].text).toMatch(/^The earlier approval link expired unused\. Running "Delete an item"/);
    expect(again._meta['mcp-gen/approval'].url).not.toBe(link);
    expect(runs()).toBe(0);
  });

  it('in-band: an accepting retry with the expired state is refused before any handler runs', async () => {
    const asked = (await remove('e2', envelope())).body.result;
    expect(asked.resultType).toBe('input_required');
    await pastExpiry();
    const retry = await remove('e2', envelope(), {
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: asked.requestState,
    });
    // Refused by the SDK's codec (-32602) or, within its last whole second, by the state's own exact expiry.
    const refusal = retry.body.error?.code ?? retry.body.result?.content?.[0]?.text;
    expect([
      -32602,
      'The approval of "Delete an item" (delete_item) expired; nothing was done. Call the tool again to ask anew.',
    ]).toContain(refusal);
    expect(runs()).toBe(0);
  });
});
