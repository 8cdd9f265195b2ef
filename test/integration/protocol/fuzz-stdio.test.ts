import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import { makeCase, mismatch, prng, RSS_GROWTH_LIMIT_KB } from './fuzz-cases.js';
import { buildProto, meta, protoKeys, rssKb } from './support.js';

// A bounded fuzz test over stdio: thousands of malformed or hostile lines (fuzz-cases.ts). Every line must get
// the answer its category calls for (exact code), the server must survive (a valid request still works; exit 0
// on EOF), and its resident memory must stay bounded. Bounded in count and time.

const STDIO_MESSAGES = 2_100;

let stdio: RawStdio;

beforeAll(() => {
  stdio = startRawStdio(buildProto(), protoKeys);
}, 120_000);

afterAll(async () => {
  // The test ends by closing stdin itself; close() would wait forever for an exit already seen.
  await (stdio?.child.exitCode === null ? stdio.close() : undefined);
});

describe('bounded fuzzing', () => {
  it(`answers ${STDIO_MESSAGES} hostile stdio lines correctly, survives, bounds RSS, exits 0 on EOF`, async () => {
    const random = prng(0xfeed);
    const cases = Array.from({ length: STDIO_MESSAGES }, (_, i) => makeCase(i, random, 'stdio'));
    const pid = stdio.child.pid ?? 0;
    await stdio.request({ jsonrpc: '2.0', id: 'warm', method: 'tools/list', params: { _meta: meta() } });
    const start = rssKb(pid);
    let before = start;
    const started = Date.now();
    const failures: string[] = [];
    const from = stdio.lines.length;
    const answerable = (count: number) => cases.slice(0, count).filter((c) => !c.expected.silent).length;
    for (let sent = 0; sent < cases.length; ) {
      for (const c of cases.slice(sent, sent + 100)) stdio.send(c.body);
      sent = Math.min(sent + 100, cases.length);
      if (sent === 300) before = rssKb(pid);
      const deadline = Date.now() + 30_000;
      while (stdio.lines.length - from < answerable(sent) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await stdio.request({ jsonrpc: '2.0', id: 'fence', method: 'tools/list', params: { _meta: meta() } });
    const answers = stdio.lines
      .slice(from)
      .map((line) => JSON.parse(line))
      .filter((answer) => answer.id !== 'fence');
    const byId = new Map(answers.filter((answer) => answer.id !== null).map((answer) => [answer.id, answer]));
    const nulls = answers.filter((answer) => answer.id === null);
    let nullIndex = 0;
    for (const c of cases) {
      if (c.expected.silent) continue;
      const problem = mismatch(c, null, c.expected.id === null ? nulls[nullIndex++] : byId.get(c.id));
      if (problem !== null) failures.push(`${c.category}: ${problem}`);
    }
    // Notifications got no line: exactly one answer per answerable line, nothing more.
    expect(answers.length).toBe(answerable(cases.length));
    const after = rssKb(pid);
    console.log(
      `fuzz/stdio: ${cases.length} lines in ${Date.now() - started} ms, RSS ${start} kB ` +
        `at start, ${before} kB after warm-up, ${after} kB at end (+${after - before} kB)`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    const alive = await stdio.request({
      jsonrpc: '2.0',
      id: 'last',
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'ok' }, _meta: meta() },
    });
    expect((alive.result as { structuredContent: unknown }).structuredContent).toEqual({ text: 'ok', count: 1 });
    expect(stdio.lines.every((line) => JSON.parse(line).jsonrpc === '2.0')).toBe(true);
    expect(after - before).toBeLessThan(RSS_GROWTH_LIMIT_KB);
    expect(await stdio.close()).toBe(0);
  }, 120_000);
});
