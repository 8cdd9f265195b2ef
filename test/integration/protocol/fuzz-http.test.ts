import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Case, json, makeCase, mismatch, prng, RSS_GROWTH_LIMIT_KB } from './fuzz-cases.js';
import { buildProto, meta, modernHeaders, post, protoKeys, rssKb, startHttp, type HttpChild } from './support.js';

// A bounded fuzz test over HTTP: thousands of malformed or hostile messages (fuzz-cases.ts), sent with
// concurrency 8. Every message must get the answer its category calls for (exact status and code), the server
// must survive (a valid request still works), and its resident memory must stay bounded. 127.0.0.1 only;
// bounded in count and time.

const HTTP_MESSAGES = 3_000;
const CONCURRENCY = 8;

let server: HttpChild;

beforeAll(async () => {
  server = await startHttp(buildProto(), protoKeys);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('bounded fuzzing', () => {
  it(`answers ${HTTP_MESSAGES} hostile HTTP messages correctly, survives, keeps RSS growth under 100 MB`, async () => {
    const random = prng(0x5eed);
    const cases = Array.from({ length: HTTP_MESSAGES }, (_, i) => makeCase(i, random, 'http'));
    const pid = server.child.pid ?? 0;
    const start = rssKb(pid);
    const failures: string[] = [];
    const started = Date.now();
    const run = async (batch: Case[]) => {
      let next = 0;
      const worker = async () => {
        while (next < batch.length) {
          const c = batch[next++] as Case;
          const headers = { ...modernHeaders('tools/list'), ...c.headers };
          if (headers['mcp-protocol-version'] === '')
            delete (headers as Record<string, string>)['mcp-protocol-version'];
          const reply = await post(server.url, c.body, headers);
          const problem = mismatch(c, reply.status, reply.body);
          if (problem !== null) failures.push(`${c.category}: ${problem}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    };
    // The first 500 messages (1 MB strings and deep nesting among them) let the heap reach its
    // working size; growth is measured over the other 2,500.
    await run(cases.slice(0, 500));
    const before = rssKb(pid);
    await run(cases.slice(500));
    const after = rssKb(pid);
    const perCategory: Record<string, number> = {};
    for (const c of cases) perCategory[c.category] = (perCategory[c.category] ?? 0) + 1;
    const counts = Object.entries(perCategory);
    console.log(
      `fuzz/http: ${cases.length} messages in ${Date.now() - started} ms, RSS ${start} kB at start, ${before} ` +
        `kB after warm-up, ${after} kB at end (+${after - before} kB); ${json(Object.fromEntries(counts))}`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    const alive = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'last',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'ok' }, _meta: meta() },
      },
      modernHeaders('tools/call', { name: 'echo' }),
    );
    expect(alive.body.result.structuredContent).toEqual({ text: 'ok', count: 1 });
    expect(after - before).toBeLessThan(RSS_GROWTH_LIMIT_KB);
  }, 120_000);
});
