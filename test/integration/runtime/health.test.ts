import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf } from '../protocol/support.js';
import { buildProject, envelope, limits, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';
import { startRedis, type RunningRedis } from './redis.js';

// Liveness and readiness probes of a generated HTTP server, over real HTTP: /healthz and /readyz answer without
// the bearer token and whatever the Host, /readyz follows a real redis-server going down and coming back on the
// same port (the memory store always answers), and it turns 503 while the server drains a call after SIGTERM.

const manifest = `mcpGen: 1
server: { name: probed, version: 1.0.0 }
transports:
  http: { host: 127.0.0.1, port: 3000, path: /mcp, shutdownGrace: 60s }
auth: { type: bearer, tokensEnv: PROBED_TOKENS }
store: { type: redis, urlEnv: PROBED_REDIS_URL }
tools:
  send_note:
    description: Sends a note; a retry with the same idempotency key does not send it twice.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
    idempotency: key
    input:
      type: object
      properties: { to: { type: string, maxLength: 40 } }
      required: [to]
      additionalProperties: false
  slow:
    description: Answers once the file the test names exists, ignoring its signal.
    annotations: { readOnlyHint: true, openWorldHint: false }
    timeout: 60s
    input: { type: object, properties: {}, additionalProperties: false }
`;

const handlers = {
  'src/handlers/tools/send_note.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const sendNoteHandler: ToolHandler<'send_note'> = async (input) => \`sent to \${input.to}\`;
`,
  'src/handlers/tools/slow.ts': `import { existsSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const slowHandler: ToolHandler<'slow'> = async () => {
  process.stderr.write('started slow\\n');
  for (const end = Date.now() + 60_000; !existsSync(process.env.PROBED_RELEASE ?? '') && Date.now() < end; )
    await new Promise((resolve) => setTimeout(resolve, 20));
  return 'done';
};
`,
};

const token = 'probe-test-token-0123456789';
const dir = path.join(repoRoot, '.test-out', 'runtime-health');
const release = path.join(dir, 'release');
let entry = '';
let redis: RunningRedis;
let env: Record<string, string> = {};

/** One request on a connection of its own (no keep-alive pool a draining server may close under it). */
function probe(
  server: RunningServer,
  target: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const headers = options.host === undefined ? {} : { host: options.host };
  const url = new URL(target, server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.setTimeout(limits.requestMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Asks /readyz until it answers `status` (bounded), and returns its last answer. */
async function readyzUntil(server: RunningServer, status: number): Promise<{ status: number; body: unknown }> {
  let answer = await probe(server, '/readyz');
  for (const end = Date.now() + 60_000; answer.status !== status && Date.now() < end; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await probe(server, '/readyz');
  }
  return { status: answer.status, body: JSON.parse(answer.text) };
}

const ready = { status: 'ok', checks: { startup: 'ok', store: 'ok', shutdown: 'ok' } };

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const source = path.join(dir, 'probed.yaml');
  writeFileSync(source, manifest);
  entry = buildProject(source, 'runtime-health/project', handlers);
  redis = await startRedis();
  env = { PROBED_TOKENS: `${token}=ops:`, PROBED_REDIS_URL: redis.url, PROBED_RELEASE: release };
}, 240_000);

afterAll(async () => {
  await redis?.stop();
}, 60_000);

describe('/healthz and /readyz', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer(entry, env);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  }, 60_000);

  it('answers /healthz 200 without the bearer token the MCP endpoint asks for', async () => {
    const live = await probe(server, '/healthz');
    expect([live.status, live.text]).toEqual([200, '{"status":"ok"}']);
    expect([live.headers['cache-control'], live.headers['content-type']]).toEqual(['no-store', 'application/json']);
    expect((await rpc(server.url, 'tools/list', { _meta: envelope() })).status).toBe(401);
    expect((await rpc(server.url, 'tools/list', { _meta: envelope() }, token)).status).toBe(200);
  });

  it('answers /readyz 200 naming each check, with no host, URL or version in it', async () => {
    const answer = await probe(server, '/readyz?verbose=1');
    expect([answer.status, JSON.parse(answer.text)]).toEqual([200, ready]);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('answers a probe whatever its Host (an orchestrator sends the pod IP), unlike the MCP endpoint', async () => {
    const host = `10.1.2.3:${server.url.port}`;
    expect((await probe(server, '/healthz', { host })).status).toBe(200);
    expect((await probe(server, '/readyz', { host })).status).toBe(200);
    expect((await probe(server, '/mcp', { host })).status).toBe(403);
  });

  it('answers GET and HEAD only: HEAD without a body, anything else 405', async () => {
    const head = await probe(server, '/readyz', { method: 'HEAD' });
    expect([head.status, head.text, head.headers['content-type']]).toEqual([200, '', 'application/json']);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await probe(server, '/healthz', { method });
      expect([answer.status, answer.headers.allow, answer.headers['cache-control']]).toEqual([
        405,
        'GET, HEAD',
        'no-store',
      ]);
    }
    expect((await probe(server, '/readyz', { method: 'POST' })).status).toBe(405);
  });

  it('answers /readyz 503 while Redis is down and 200 once it is back on the same port', async () => {
    await redis.stop();
    const down = await readyzUntil(server, 503);
    expect(down).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { startup: 'ok', store: 'down', shutdown: 'ok' } },
    });
    expect((await probe(server, '/healthz')).status).toBe(200);
    redis = await startRedis(redis.port);
    expect(await readyzUntil(server, 200)).toEqual({ status: 200, body: ready });
  }, 180_000);
});

describe('probes while draining', () => {
  it('answers /readyz 503 after SIGTERM while a slow call finishes, /healthz 200, a new call 503', async () => {
    rmSync(release, { force: true });
    const server = await startHttpServer(entry, env);
    try {
      const slow = rpc(server.url, 'tools/call', { name: 'slow', arguments: {}, _meta: envelope() }, token);
      for (const end = Date.now() + 60_000; !server.stderr().includes('started slow') && Date.now() < end; )
        await new Promise((resolve) => setTimeout(resolve, 20));
      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      const draining = await readyzUntil(server, 503);
      expect(draining).toEqual({
        status: 503,
        body: { status: 'unavailable', checks: { startup: 'ok', store: 'ok', shutdown: 'draining' } },
      });
      expect((await probe(server, '/healthz')).status).toBe(200);
      const refused = await rpc(server.url, 'tools/list', { _meta: envelope() }, token);
      expect([refused.status, refused.headers.get('retry-after'), refused.body.error]).toEqual([
        503,
        '1',
        { code: -32000, message: 'Server shutting down' },
      ]);
      writeFileSync(release, '');
      const answer = await slow;
      expect([answer.status, answer.body.result.content]).toEqual([200, [{ type: 'text', text: 'done' }]]);
      expect(await exited, server.stderr()).toBe(0);
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe('MCP_GEN_HEALTH=off', () => {
  it('serves no probes: both paths are unknown (404), the MCP endpoint unchanged', async () => {
    const server = await startHttpServer(entry, { ...env, MCP_GEN_HEALTH: 'off' });
    try {
      expect((await probe(server, '/healthz')).status).toBe(404);
      expect((await probe(server, '/readyz')).status).toBe(404);
      expect((await rpc(server.url, 'tools/list', { _meta: envelope() }, token)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('on the memory store', () => {
  it('answers /readyz 200 with the store ok: the memory store always answers', async () => {
    const source = path.join(dir, 'probed-memory.yaml');
    writeFileSync(source, manifest.replace(/^store: .*\n/m, '').replace(/^auth: .*\n/m, ''));
    const server = await startHttpServer(buildProject(source, 'runtime-health/memory', handlers), {});
    try {
      const answer = await probe(server, '/readyz');
      expect([answer.status, JSON.parse(answer.text)]).toEqual([200, ready]);
    } finally {
      await server.stop();
    }
  }, 240_000);
});
