import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProto, call, meta, protoKeys, repoRoot, runsIn, startHttp, type HttpChild } from './support.js';

// Statelessness, shown: two instances of the same generated server share nothing but their keys.
// Requests alternate between them, and no answer depends on which instance saw the previous one.

const dir = path.join(repoRoot, '.test-out', 'protocol-stateless-logs');
const calls = path.join(dir, 'calls.log');
let a: HttpChild;
let b: HttpChild;

beforeAll(async () => {
  const entry = buildProto();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  [a, b] = await Promise.all([
    startHttp(entry, { ...protoKeys, PROTO_CALLS: calls }),
    startHttp(entry, { ...protoKeys, PROTO_CALLS: calls }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

const pid = (server: HttpChild): number => server.child.pid ?? -1;
const elicit = { elicitation: { form: {} } };
const accept = { confirm: { action: 'accept', content: { confirm: true } } };

/** Handler runs recorded since `from`, as `<pid> <line>`. */
const runsSince = (from: number) => runsIn(calls, false).slice(from);

describe('two instances with the same keys', () => {
  it('are two processes on two ports', () => {
    expect(a.url.port).not.toBe(b.url.port);
    expect(pid(a)).not.toBe(pid(b));
  });

  it('accept at B a handle issued by A, and at A one issued by B', async () => {
    const from = runsIn(calls).length;
    const fromA = (await call(a.url, 'tools/call', { name: 'open_draft', arguments: { name: 'one' }, _meta: meta() }))
      .body.result.structuredContent.draft;
    const atB = await call(b.url, 'tools/call', { name: 'use_draft', arguments: { draft: fromA }, _meta: meta() });
    expect(atB.body.result.content).toEqual([{ type: 'text', text: 'used draft-one' }]);
    const fromB = (await call(b.url, 'tools/call', { name: 'open_draft', arguments: { name: 'two' }, _meta: meta() }))
      .body.result.structuredContent.draft;
    const atA = await call(a.url, 'tools/call', { name: 'use_draft', arguments: { draft: fromB }, _meta: meta() });
    expect(atA.body.result.content).toEqual([{ type: 'text', text: 'used draft-two' }]);
    expect(runsSince(from)).toEqual([
      `${pid(a)} open_draft`,
      `${pid(b)} use_draft draft-one`,
      `${pid(b)} open_draft`,
      `${pid(a)} use_draft draft-two`,
    ]);
  });

  it('run an approval asked for by A when the accepting retry reaches B, exactly once', async () => {
    const from = runsIn(calls).length;
    const args = { id: 'note-7' };
    const first = await call(a.url, 'tools/call', { name: 'remove_note', arguments: args, _meta: meta(elicit) }, 1);
    expect(first.body.result.resultType).toBe('input_required');
    const requestState = first.body.result.requestState as string;
    const retry = await call(
      b.url,
      'tools/call',
      { name: 'remove_note', arguments: args, inputResponses: accept, requestState, _meta: meta(elicit) },
      2,
    );
    expect(retry.body.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'removed note-7' }],
    });
    expect(retry.body.result.isError).toBeUndefined();
    expect(runsSince(from)).toEqual([`${pid(b)} remove_note note-7`]);
  });

  it('answer every request identically whichever instance answered the previous one', async () => {
    const requests: [string, Record<string, unknown>][] = [
      ['server/discover', {}],
      ['tools/list', {}],
      ['tools/call', { name: 'echo', arguments: { text: 'same', count: 2 } }],
      ['tools/call', { name: 'bad_output', arguments: {} }],
      ['resources/read', { uri: 'proto://items/9' }],
      ['prompts/get', { name: 'greet', arguments: { name: 'Di' } }],
      ['nothing/here', {}],
    ];
    // A, B, A, B, ... and then B, A, B, A, ...: each request is answered the same in both orders.
    const run = async (order: HttpChild[]) => {
      const bodies = [];
      for (const [index, [method, params]] of requests.entries()) {
        const server = order[index % 2] ?? a;
        const answer = await call(server.url, method, { ...params, _meta: meta() }, index);
        bodies.push({ status: answer.status, body: answer.body });
      }
      return bodies;
    };
    const ab = await run([a, b]);
    const ba = await run([b, a]);
    expect(ba).toEqual(ab);
    expect(ab.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 404]);
  });

  it('keep a multi-step workflow going while requests hop between instances', async () => {
    const from = runsIn(calls).length;
    const servers = [a, b, a, b];
    const drafts: string[] = [];
    for (const [index, server] of servers.entries()) {
      const answer = await call(server.url, 'tools/call', {
        name: 'open_draft',
        arguments: { name: `hop${index}` },
        _meta: meta(),
      });
      drafts.push(answer.body.result.structuredContent.draft);
    }
    // Each draft is used by the instance that did NOT issue it.
    for (const [index, draft] of drafts.entries()) {
      const server = servers[index] === a ? b : a;
      const answer = await call(server.url, 'tools/call', { name: 'use_draft', arguments: { draft }, _meta: meta() });
      expect(answer.body.result.content).toEqual([{ type: 'text', text: `used draft-hop${index}` }]);
    }
    const uses = runsSince(from).filter((line) => line.includes('use_draft'));
    expect(uses).toEqual([
      `${pid(b)} use_draft draft-hop0`,
      `${pid(a)} use_draft draft-hop1`,
      `${pid(b)} use_draft draft-hop2`,
      `${pid(a)} use_draft draft-hop3`,
    ]);
  });
});
