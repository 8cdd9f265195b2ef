import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, generateAndCompile, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';
import { startRedis, type RunningRedis } from './redis.js';

// The approval page with `store: redis` and two instances: a person decides on instance A's page, the repeated call
// lands on instance B and runs once there, and no instance runs it again.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'stored.yaml');
const calls = path.join(repoRoot, '.test-out', 'runtime-approval-page-redis.calls');
const handlers = {
  'src/handlers/tools/remove_record.ts': `import { appendFileSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const removeRecordHandler: ToolHandler<'remove_record'> = async (input) => {
  appendFileSync(process.env.STORED_CALLS ?? '', \`\${input.id}\\n\`);
  return \`removed \${input.id}\`;
};
`,
};
const runs = (): number => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').length : 0);

let redis: RunningRedis;
let a: RunningServer;
let b: RunningServer;

/** remove_record on `server` from a client without elicitation. */
async function remove(server: RunningServer, id: string) {
  const answer = await rpc(server.url, 'tools/call', { name: 'remove_record', arguments: { id }, _meta: envelope({}) });
  return answer.body.result as { content: { text: string }[]; isError?: boolean; _meta?: Record<string, any> };
}

/** Decides the approval at `link` as its page's form does: GET the page, POST its token from its origin. */
async function decide(link: string, decision: 'approve' | 'decline'): Promise<number> {
  const html = await (await fetch(link)).text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const answer = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(link).origin },
    body: new URLSearchParams({ token, decision }).toString(),
  });
  return answer.status;
}

beforeAll(async () => {
  const entry = generateAndCompile(manifest, 'runtime-approval-page-redis', handlers);
  rmSync(calls, { force: true });
  redis = await startRedis();
  const env = { STORED_STATE_KEY: 'stored-state-key-0123456789abcdef-01234', STORED_CALLS: calls };
  const start = () => startHttpServer(entry, { ...env, STORED_REDIS_URL: redis.url });
  [a, b] = await Promise.all([start(), start()]);
}, 240_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
});

describe('the approval page on two instances sharing Redis', () => {
  it('approved on A, the repeat on B runs once; no instance runs it again', async () => {
    const asked = await remove(a, 'r1');
    const link = String(asked._meta?.['mcp-gen/approval']?.url);
    expect(link.startsWith(`${a.url.origin}/approvals/`)).toBe(true);
    // B knows the pending approval: the same call there names the same approval (on B's origin: each instance names
    // its own unless MCP_GEN_APPROVAL_ORIGIN names the public one).
    const fromB = String((await remove(b, 'r1'))._meta?.['mcp-gen/approval']?.url);
    expect(fromB).toBe(link.replace(a.url.origin, b.url.origin));
    expect(await decide(link, 'approve')).toBe(200);
    const ran = await remove(b, 'r1');
    expect([ran.isError, ran.content]).toEqual([undefined, [{ type: 'text', text: 'removed r1' }]]);
    expect((await remove(a, 'r1')).isError).toBe(true);
    expect((await remove(b, 'r1')).isError).toBe(true);
    expect(runs()).toBe(1);
  });

  it('declined on B, the repeat on A is refused', async () => {
    const link = String((await remove(a, 'r2'))._meta?.['mcp-gen/approval']?.url);
    // The page of A's link, opened through B: the approval is in the store both read.
    const onB = link.replace(a.url.origin, b.url.origin);
    expect(await decide(onB, 'decline')).toBe(200);
    expect((await remove(a, 'r2')).content[0]?.text).toBe(
      'The user declined "Remove a record" (remove_record) on the approval page; nothing was done.',
    );
    expect(runs()).toBe(1);
  });
});
