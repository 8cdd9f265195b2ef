import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, envelope, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';
import { startRedis, type RunningRedis } from './redis.js';

// The state store over real HTTP: approvals used once and idempotency keys, on Redis shared by two
// server processes (and across their restart), and on the memory store inside one process.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'stored.yaml');
const stateKey = 'stored-state-key-0123456789abcdef-01234';
const accept = { confirm: { action: 'accept', content: { confirm: true } } };
const replays = 1000;

// remove_record appends one line per run to STORED_CALLS; send_note to STORED_NOTES, slowly, so duplicates overlap it.
const handlers: Readonly<Record<string, string>> = {
  'src/handlers/tools/remove_record.ts': `import { appendFileSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const removeRecordHandler: ToolHandler<'remove_record'> = async (input) => {
  appendFileSync(process.env.STORED_CALLS ?? '', \`\${input.id}\\n\`);
  return \`removed \${input.id}\`;
};
`,
  'src/handlers/tools/send_note.ts': `import { appendFileSync, readFileSync } from 'node:fs';
import type { ToolHandler } from '../../generated/index.gen.js';

export const sendNoteHandler: ToolHandler<'send_note'> = async (input) => {
  const log = process.env.STORED_NOTES ?? '';
  appendFileSync(log, \`\${input.idempotencyKey} \${input.to}\\n\`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { sent: readFileSync(log, 'utf8').trim().split('\\n').length, to: input.to };
};
`,
};

/** Lines in `file`: handler runs. */
function lines(file: string): number {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter((line) => line !== '').length
    : 0;
}

/** The text of a tool result (or of a JSON-RPC error). */
function textOf(body: any): string {
  return body.error?.message ?? body.result?.content?.[0]?.text ?? JSON.stringify(body);
}

const call = (
  server: RunningServer,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  id = 1,
) => rpc(server.url, 'tools/call', { name, arguments: args, _meta: envelope(), ...extra }, undefined, id);

/** Round one of remove_record: the sealed state an accepted retry carries. */
async function approvalFor(server: RunningServer, id: string): Promise<string> {
  const first = await call(server, 'remove_record', { id });
  expect(first.body.result.resultType).toBe('input_required');
  return first.body.result.requestState as string;
}

/** The suite for one store; `servers` are all the instances (each sees the same store). */
function storeSuite(kind: 'redis' | 'memory', instances: number): void {
  const dir = path.join(repoRoot, '.test-out', `runtime-store-${kind}`);
  const calls = path.join(repoRoot, '.test-out', `runtime-store-${kind}.calls`);
  const notes = path.join(repoRoot, '.test-out', `runtime-store-${kind}.notes`);
  let redis: RunningRedis | undefined;
  let entry = '';
  let servers: RunningServer[] = [];
  let env: Record<string, string> = {};

  const startAll = async (): Promise<void> => {
    servers = await Promise.all(Array.from({ length: instances }, () => startHttpServer(entry, env)));
  };
  const stopAll = async (): Promise<void> => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  /** Instance `i % instances`: requests are spread evenly over them. */
  const at = (i: number): RunningServer => servers[i % servers.length] as RunningServer;

  beforeAll(async () => {
    mkdirSync(path.dirname(dir), { recursive: true });
    let source = manifest;
    if (kind === 'memory') {
      source = path.join(repoRoot, '.test-out', 'stored-memory.yaml');
      writeFileSync(
        source,
        readFileSync(manifest, 'utf8').replace(/^store: .*$/m, 'store: { type: memory, idempotencyTtl: 1h }'),
      );
    }
    entry = buildProject(source, `runtime-store-${kind}`, handlers);
    rmSync(calls, { force: true });
    rmSync(notes, { force: true });
    if (kind === 'redis') redis = await startRedis();
    env = {
      STORED_STATE_KEY: stateKey,
      STORED_CALLS: calls,
      STORED_NOTES: notes,
      ...(redis === undefined ? {} : { STORED_REDIS_URL: redis.url }),
    };
    await startAll();
  }, 240_000);

  afterAll(async () => {
    await stopAll();
    await redis?.stop();
  }, 120_000);

  const spread = instances > 1 ? ' spread over two instances' : '';
  it(`runs an accepted approval exactly once across ${replays} concurrent replays${spread}`, async () => {
    if (kind === 'redis')
      expect(
        servers.map((server) => /store: redis redis:\/\/127\.0\.0\.1:\d+ is reachable/.test(server.stderr())),
      ).toEqual([true, true]);
    const state = await approvalFor(at(0), 'r1');
    const answers = await Promise.all(
      Array.from({ length: replays }, (_, i) =>
        call(at(i), 'remove_record', { id: 'r1' }, { inputResponses: accept, requestState: state }, i + 2),
      ),
    );
    const texts = answers.map((answer) => textOf(answer.body));
    expect(texts.filter((text) => text === 'removed r1')).toHaveLength(1);
    expect(new Set(texts.filter((text) => text !== 'removed r1'))).toEqual(
      new Set([
        'This approval of "Remove a record" (remove_record) was already used; ' +
          'nothing was done. Call the tool again to ask for a new approval.',
      ]),
    );
    expect(lines(calls)).toBe(1);
    if (kind === 'redis') {
      // Restart both instances: the store, not a process, remembers the approval.
      await stopAll();
      await startAll();
      const again = await Promise.all(
        servers.map((server, i) =>
          call(server, 'remove_record', { id: 'r1' }, { inputResponses: accept, requestState: state }, i + 2),
        ),
      );
      expect(again.map((answer) => answer.body.result.isError)).toEqual([true, true]);
      expect(lines(calls)).toBe(1);
    }
  }, 240_000);

  it(`runs ${replays} concurrent calls with one idempotency key and equal arguments once: all get it`, async () => {
    const args = { to: 'ada', text: 'hello', idempotencyKey: 'key-0000-0001' };
    const answers = await Promise.all(
      Array.from({ length: replays }, (_, i) => call(at(i), 'send_note', args, {}, i + 1)),
    );
    expect(lines(notes)).toBe(1);
    const results = answers.map((answer) =>
      JSON.stringify([answer.body.result?.content, answer.body.result?.structuredContent, answer.body.result?.isError]),
    );
    expect(new Set(results)).toEqual(
      new Set([JSON.stringify([[{ type: 'text', text: '{"sent":1,"to":"ada"}' }], { sent: 1, to: 'ada' }, undefined])]),
    );
    // The key order of the arguments does not matter; a later retry gets the stored result too.
    const later = await call(at(1), 'send_note', { idempotencyKey: 'key-0000-0001', text: 'hello', to: 'ada' });
    expect(later.body.result.structuredContent).toEqual({ sent: 1, to: 'ada' });
    expect(lines(notes)).toBe(1);
  }, 240_000);

  it('rejects the same idempotency key with other arguments, and runs a new key', async () => {
    const other = await call(at(0), 'send_note', { to: 'bob', text: 'hello', idempotencyKey: 'key-0000-0001' });
    expect(other.body.result).toMatchObject({
      content: [
        {
          type: 'text',
          text:
            'The idempotencyKey was already used for a call of "send_note" with ' +
            'other arguments; nothing was done. Use a new key for a new operation.',
        },
      ],
      isError: true,
    });
    const missing = await call(at(0), 'send_note', { to: 'bob' });
    expect(textOf(missing.body)).toContain('idempotencyKey');
    expect(lines(notes)).toBe(1);
    const fresh = await call(at(1), 'send_note', { to: 'bob', idempotencyKey: 'key-0000-0002' });
    expect(fresh.body.result.structuredContent).toEqual({ sent: 2, to: 'bob' });
  }, 120_000);

  if (kind === 'redis') {
    it('fails closed with the store stopped: neither the approved nor the keyed call runs', async () => {
      const state = await approvalFor(at(0), 'r2');
      await redis?.stop();
      const approved = await call(
        at(1),
        'remove_record',
        { id: 'r2' },
        { inputResponses: accept, requestState: state },
      );
      const keyed = await call(at(0), 'send_note', { to: 'cy', idempotencyKey: 'key-0000-0003' });
      const unavailable = (tool: string): unknown => ({
        content: [
          {
            type: 'text',
            text:
              `The tool "${tool}" did not run: the server's state store is unavailable, ` +
              'so it cannot check that this call runs only once. Try again later.',
          },
        ],
        isError: true,
      });
      expect(approved.body.result).toMatchObject(unavailable('remove_record') as object);
      expect(keyed.body.result).toMatchObject(unavailable('send_note') as object);
      expect(lines(calls)).toBe(1);
      expect(lines(notes)).toBe(2);
      // Each instance reports the outage once it tries to reconnect (every 200 ms at first): a bounded wait.
      const reported = (): boolean[] =>
        servers.map((server) => /store: redis redis:\/\/127\.0\.0\.1:\d+ is unreachable/.test(server.stderr()));
      for (let waited = 0; waited < 20_000 && reported().includes(false); waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reported()).toEqual([true, true]);
    }, 120_000);
  }
}

describe('state store: redis shared by two instances', () => storeSuite('redis', 2));
describe('state store: memory in one process', () => storeSuite('memory', 1));
