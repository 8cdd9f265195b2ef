import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from '../protocol/support.js';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import { generateAndCompile, envelope, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';
import { startRedis, type RunningRedis } from './redis.js';

// Idempotency keys through cancels, disconnects and timeouts, over real stdio and real HTTP, on the memory
// store and on a real Redis: a client gives up on a slow keyed call and sends it again with the same key;
// the handler must run once and the retry must get its real result. Each handler run appends a line to a file.

const manifest = path.join(repoRoot, 'test', 'fixtures', 'runtime', 'keyed.yaml');

/** Logs its start, sleeps `ms` (stopping on the abort if `cooperative`), logs its end; `to: fail` then throws. */
const handler = (
  tool: string,
  exported: string,
  cooperative: string,
): string => `import { appendFileSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError, type ToolHandler } from '../../generated/index.gen.js';

export const ${exported}: ToolHandler<'${tool}'> = async (input, ctx) => {
  const log = process.env.KEYED_RUNS ?? '';
  appendFileSync(log, \`start \${input.idempotencyKey}\\n\`);
  await (${cooperative} ? sleep(input.ms, undefined, { signal: ctx.signal }) : sleep(input.ms));
  appendFileSync(log, \`end \${input.idempotencyKey}\\n\`);
  if (input.to === 'fail') throw new ToolError('The note could not be sent.');
  const started = \`start \${input.idempotencyKey}\`;
  const runs = readFileSync(log, 'utf8').split('\\n').filter((line) => line === started).length;
  return \`sent to \${input.to} (run \${runs})\`;
};
`;

const handlers: Readonly<Record<string, string>> = {
  'src/handlers/tools/slow_send.ts': handler('slow_send', 'slowSendHandler', 'input.cooperative'),
  'src/handlers/tools/timed_send.ts': handler('timed_send', 'timedSendHandler', 'false'),
};

/** How many lines of `runs` are exactly `line`. */
function count(runs: string, line: string): number {
  return existsSync(runs)
    ? readFileSync(runs, 'utf8')
        .split('\n')
        .filter((seen) => seen === line).length
    : 0;
}

/** Waits (bounded) until `runs` holds `line`. */
async function waitForLine(runs: string, line: string, ms = 30_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 5)))
    if (count(runs, line) > 0) return;
  throw new Error(`no "${line}" in ${runs} within ${ms} ms`);
}

const callParams = (name: string, args: Record<string, unknown>) => ({ name, arguments: args, _meta: envelope({}) });

/** A raw tools/call POST the test can abort by closing its connection, as a client that gives up does. */
function abortablePost(
  url: URL,
  name: string,
  args: Record<string, unknown>,
): { abort: () => void; answered: () => boolean } {
  const params = callParams(name, args);
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }));
  const req = httpRequest(url, {
    method: 'POST',
    headers: { ...modernHeaders('tools/call', params), 'content-length': String(body.length) },
  });
  let answered = false;
  req.on('error', () => undefined);
  req.once('response', () => (answered = true));
  req.end(body);
  return { abort: () => req.destroy(), answered: () => answered };
}

const sent = (to: string): unknown => ({ content: [{ type: 'text', text: `sent to ${to} (run 1)` }] });

function keyedSuite(kind: 'memory' | 'redis'): void {
  const runs = path.join(repoRoot, '.test-out', `runtime-keyed-${kind}.runs`);
  let redis: RunningRedis | undefined;
  let entry = '';
  let env: Record<string, string> = {};
  // Two HTTP instances: with Redis the retry goes to the other one, as behind a load balancer.
  let servers: RunningServer[] = [];
  let stdio: RawStdio | undefined;
  const retryServer = (): RunningServer => servers[servers.length - 1] as RunningServer;

  beforeAll(async () => {
    let source = manifest;
    if (kind === 'memory') {
      source = path.join(repoRoot, '.test-out', 'keyed-memory.yaml');
      mkdirSync(path.dirname(source), { recursive: true });
      writeFileSync(
        source,
        readFileSync(manifest, 'utf8').replace(/^store: .*$/m, 'store: { type: memory, idempotencyTtl: 1h }'),
      );
    }
    entry = generateAndCompile(source, `runtime-keyed-${kind}`, handlers);
    rmSync(runs, { force: true });
    if (kind === 'redis') redis = await startRedis();
    env = { KEYED_RUNS: runs, ...(redis === undefined ? {} : { KEYED_REDIS_URL: redis.url }) };
    servers = await Promise.all(Array.from({ length: kind === 'redis' ? 2 : 1 }, () => startHttpServer(entry, env)));
    stdio = startRawStdio(entry, env);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (stdio !== undefined && stdio.child.exitCode === null) await stdio.close();
    await redis?.stop();
  }, 120_000);

  const stdioCall = (id: number, name: string, args: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: callParams(name, args),
  });
  const cancel = (id: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'gave up', _meta: envelope({}) },
    });

  it('stdio: a call cancelled while its handler runs, sent again with its key, runs the handler once', async () => {
    const server = stdio as RawStdio;
    const args = { to: 'ada', ms: 4000, idempotencyKey: `stdio-cancel-${kind}` };
    server.send(JSON.stringify(stdioCall(1, 'slow_send', args)));
    await waitForLine(runs, `start ${args.idempotencyKey}`);
    server.send(cancel(1));
    const retry = await server.request(stdioCall(2, 'slow_send', args), 60_000);
    expect(retry.result).toMatchObject(sent('ada') as object);
    expect(count(runs, `start ${args.idempotencyKey}`)).toBe(1);
    expect(count(runs, `end ${args.idempotencyKey}`)).toBe(1);
    // The cancelled request got no answer, as the protocol asks.
    expect(server.lines.map((line) => JSON.parse(line).id)).toEqual([2]);
  }, 120_000);

  it('HTTP: a call whose client disconnects mid-handler, sent again with its key, runs the handler once', async () => {
    const args = { to: 'bob', ms: 4000, idempotencyKey: `http-disconnect-${kind}` };
    const first = abortablePost(servers[0]?.url as URL, 'slow_send', args);
    await waitForLine(runs, `start ${args.idempotencyKey}`);
    first.abort();
    const retry = await rpc(retryServer().url, 'tools/call', callParams('slow_send', args));
    expect([first.answered(), retry.status]).toEqual([false, 200]);
    expect(retry.body.result).toMatchObject(sent('bob') as object);
    expect(count(runs, `start ${args.idempotencyKey}`)).toBe(1);
    // A later retry gets the stored result at once.
    const later = await rpc(servers[0]?.url as URL, 'tools/call', callParams('slow_send', args));
    expect(later.body.result).toMatchObject(sent('bob') as object);
    expect(count(runs, `start ${args.idempotencyKey}`)).toBe(1);
  }, 120_000);

  it('a timed-out call answers the timeout; once its handler completes, a retry gets the real result', async () => {
    const args = { to: 'cy', ms: 3000, idempotencyKey: `timeout-${kind}` };
    const first = await rpc(servers[0]?.url as URL, 'tools/call', callParams('timed_send', args));
    expect(first.body.result).toMatchObject({
      content: [{ type: 'text', text: 'The tool "timed_send" timed out after 1 s.' }],
      isError: true,
    });
    await waitForLine(runs, `end ${args.idempotencyKey}`);
    const retry = await rpc(retryServer().url, 'tools/call', callParams('timed_send', args));
    expect(retry.body.result).toMatchObject(sent('cy') as object);
    expect(retry.body.result.isError).toBeUndefined();
    expect(count(runs, `start ${args.idempotencyKey}`)).toBe(1);
    // A handler that throws after the timeout: its error is what the retry gets, and it does not run again.
    const failing = { to: 'fail', ms: 3000, idempotencyKey: `timeout-fail-${kind}` };
    const late = await rpc(servers[0]?.url as URL, 'tools/call', callParams('timed_send', failing));
    expect(late.body.result.content).toEqual([{ type: 'text', text: 'The tool "timed_send" timed out after 1 s.' }]);
    await waitForLine(runs, `end ${failing.idempotencyKey}`);
    const failed = await rpc(retryServer().url, 'tools/call', callParams('timed_send', failing));
    expect(failed.body.result).toMatchObject({
      content: [{ type: 'text', text: 'The note could not be sent.' }],
      isError: true,
    });
    expect(count(runs, `start ${failing.idempotencyKey}`)).toBe(1);
    // The same on stdio, with its own key (a memory store is not shared between the two processes).
    const overStdio = { ...args, idempotencyKey: `stdio-timeout-${kind}` };
    const timedOut = await (stdio as RawStdio).request(stdioCall(3, 'timed_send', overStdio));
    expect(timedOut.result).toMatchObject({
      content: [{ type: 'text', text: 'The tool "timed_send" timed out after 1 s.' }],
    });
    await waitForLine(runs, `end ${overStdio.idempotencyKey}`);
    const stdioRetry = await (stdio as RawStdio).request(stdioCall(4, 'timed_send', overStdio));
    expect(stdioRetry.result).toMatchObject(sent('cy') as object);
    expect(count(runs, `start ${overStdio.idempotencyKey}`)).toBe(1);
  }, 120_000);

  it('a handler that stops on the abort releases its key: the retry runs it again', async () => {
    const args = { to: 'dee', ms: 3000, cooperative: true, idempotencyKey: `cooperative-${kind}` };
    const first = abortablePost(servers[0]?.url as URL, 'slow_send', args);
    await waitForLine(runs, `start ${args.idempotencyKey}`);
    first.abort();
    // A retry that arrives before the claim is released is told the call did not finish: a client retries then.
    const unfinished =
      'The call of "slow_send" with this idempotencyKey did not finish; nothing was stored. Retry with the same key.';
    let retry = await rpc(retryServer().url, 'tools/call', callParams('slow_send', args));
    for (let tries = 1; tries < 5 && retry.body.result?.content?.[0]?.text === unfinished; tries++)
      retry = await rpc(retryServer().url, 'tools/call', callParams('slow_send', args));
    expect(retry.body.result).toMatchObject({ content: [{ type: 'text', text: 'sent to dee (run 2)' }] });
    expect([count(runs, `start ${args.idempotencyKey}`), count(runs, `end ${args.idempotencyKey}`)]).toEqual([2, 1]);
  }, 120_000);

  if (kind === 'redis')
    it('a claim whose answer was lost while Redis stalled is withdrawn once it wakes: the retry runs', async () => {
      const args = { to: 'eve', ms: 0, idempotencyKey: 'stalled-redis' };
      // Redis holds writes for 9.5 s and answers reads: the ledger's read answers, its claim (sent within 4.5 s) times
      // out after the store's 5 s, so the call fails closed; Redis applies the claim when it resumes.
      const pause = spawnSync('redis-cli', ['-p', String(redis?.port), 'CLIENT', 'PAUSE', '9500', 'WRITE'], {
        encoding: 'utf8',
        timeout: 10_000,
      });
      expect(pause.stdout.trim()).toBe('OK');
      const first = await rpc(servers[0]?.url as URL, 'tools/call', callParams('slow_send', args));
      expect(first.body.result).toMatchObject({ resultType: 'complete', isError: true });
      expect(first.body.result.content).toEqual([
        {
          type: 'text',
          text:
            'The tool "slow_send" did not run: the server\'s state store is unavailable, so it cannot check that ' +
            'this call runs only once. Try again later.',
        },
      ]);
      expect(count(runs, `start ${args.idempotencyKey}`)).toBe(0);
      // Nothing runs under that claim, so it must not hold the key for 5 minutes: the retry runs the handler.
      const unfinished =
        'The call of "slow_send" with this idempotencyKey did not finish; nothing was stored. Retry with the same key.';
      let retry = await rpc(retryServer().url, 'tools/call', callParams('slow_send', args));
      for (let tries = 1; tries < 3 && retry.body.result?.content?.[0]?.text === unfinished; tries++)
        retry = await rpc(retryServer().url, 'tools/call', callParams('slow_send', args));
      expect(retry.body.result).toMatchObject(sent('eve') as object);
      expect(count(runs, `start ${args.idempotencyKey}`)).toBe(1);
    }, 120_000);
}

describe('idempotency through cancels on the memory store', () => keyedSuite('memory'));
describe('idempotency through cancels on redis shared by two instances', () => keyedSuite('redis'));
