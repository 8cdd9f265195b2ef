import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGuarded, connectGuardedStdio, guardedEnv, stateKey, tokens } from './guarded.js';
import {
  connectClient,
  envelope,
  repoRoot,
  rpc,
  startHttpServer,
  type Elicitor,
  type RunningServer,
} from './harness.js';

// Approval of a destructive tool (delete_item, approval: confirm) on a generated server, over real HTTP.

const dir = path.join(repoRoot, '.test-out', 'runtime-approval');
const calls = path.join(dir, 'calls.log');
const accept = { confirm: { action: 'accept', content: { confirm: true } } };
const bodyOf = (state: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(state.split('.')[1] ?? '', 'base64url').toString('utf8'));
const digest = (json: string): string => createHash('sha256').update(json).digest('base64url');
const rejectedState = {
  code: -32602,
  message: 'Invalid or expired requestState',
  data: { reason: 'invalid_request_state' },
};

/** How many times the delete_item handler has run. */
function runs(): number {
  return existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').length : 0;
}

let entry = '';
let server: RunningServer;

/** Round one of delete_item for `token`: returns the sealed requestState. */
async function askFor(args: Record<string, unknown>, token: string = tokens.alice): Promise<string> {
  const first = await rpc(server.url, 'tools/call', { name: 'delete_item', arguments: args, _meta: envelope() }, token);
  expect(first.body.result.resultType).toBe('input_required');
  return first.body.result.requestState as string;
}

/** A retry of delete_item with `state` and `responses`. */
function retry(
  args: Record<string, unknown>,
  state: string | undefined,
  responses: Record<string, unknown>,
  token: string = tokens.alice,
) {
  const params = {
    name: 'delete_item',
    arguments: args,
    _meta: envelope(),
    inputResponses: responses,
    ...(state === undefined ? {} : { requestState: state }),
  };
  return rpc(server.url, 'tools/call', params, token, 2);
}

beforeAll(async () => {
  entry = buildGuarded('runtime-approval');
  rmSync(calls, { force: true });
  server = await startHttpServer(entry, guardedEnv(calls));
});

afterAll(async () => {
  await server?.stop();
});

describe('approval of a destructive tool over HTTP', () => {
  it('asks first: input_required, a yes/no form naming tool and arguments, a state bound to them', async () => {
    const before = runs();
    const answer = await rpc(
      server.url,
      'tools/call',
      { name: 'delete_item', arguments: { reason: 'tidy', id: 'a1' }, _meta: envelope() },
      tokens.alice,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result.inputRequests).toEqual({
      confirm: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Approve running "Delete an item" (delete_item) with arguments {"id":"a1","reason":"tidy"}?',
          requestedSchema: {
            type: 'object',
            properties: {
              confirm: { type: 'boolean', title: 'Confirm', description: 'Yes, run it with exactly these arguments.' },
            },
            required: ['confirm'],
          },
        },
      },
    });
    const sealed = bodyOf(answer.body.result.requestState);
    const now = Math.floor(Date.now() / 1000);
    expect(sealed.p).toMatchObject({ t: 'delete_item', a: digest('{"id":"a1","reason":"tidy"}'), p: 'alice' });
    expect(sealed.exp).toBeGreaterThanOrEqual(now + 295);
    expect(sealed.exp).toBeLessThanOrEqual(now + 300);
    expect(typeof sealed.b).toBe('string');
    expect(runs()).toBe(before);
  });

  it('runs the handler exactly once after the SDK client accepts', async () => {
    const before = runs();
    const elicitor: Elicitor = { answer: { action: 'accept', content: { confirm: true } }, seen: [] };
    const client = await connectClient(server.url, tokens.alice, elicitor);
    const result = await client.callTool({ name: 'delete_item', arguments: { id: 'b2' } });
    await client.close();
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: `deleted b2 for alice (run ${before + 1})` }]);
    expect(elicitor.seen.map((p) => p.message)).toEqual([
      'Approve running "Delete an item" (delete_item) with arguments {"id":"b2"}?',
    ]);
    expect(runs()).toBe(before + 1);
    expect(readFileSync(calls, 'utf8').trim().split('\n').at(-1)).toBe('alice {"id":"b2"}');
  });

  it('answers a decline, a cancel and an unticked box with isError, and never runs the handler', async () => {
    const before = runs();
    const texts: string[] = [];
    for (const answer of [
      { action: 'decline' as const },
      { action: 'cancel' as const },
      { action: 'accept' as const, content: { confirm: false } },
    ]) {
      const client = await connectClient(server.url, tokens.alice, { answer, seen: [] });
      const result = await client.callTool({ name: 'delete_item', arguments: { id: 'c3' } });
      await client.close();
      expect(result.isError).toBe(true);
      texts.push((result.content as { text: string }[])[0]?.text ?? '');
    }
    expect(texts).toEqual([
      'The user declined "Delete an item" (delete_item); nothing was done.',
      'The user cancelled "Delete an item" (delete_item); nothing was done.',
      'The user did not confirm "Delete an item" (delete_item); nothing was done.',
    ]);
    expect(runs()).toBe(before);
  });

  it('rejects a tampered state with -32602 before any handler runs', async () => {
    const before = runs();
    const state = await askFor({ id: 'd4' });
    const [prefix, body, mac] = state.split('.');
    const forged = Buffer.from(
      Buffer.from(body ?? '', 'base64url')
        .toString('utf8')
        .replace('"p":"alice"', '"p":"mallory"'),
    ).toString('base64url');
    for (const tampered of [`${prefix}.${forged}.${mac}`, `${state.slice(0, -2)}AA`, 'v1.e30.AAAA', 'not-a-state']) {
      const answer = await retry({ id: 'd4' }, tampered, accept);
      expect(answer.status).toBe(200);
      expect(answer.body.error).toEqual(rejectedState);
    }
    expect(runs()).toBe(before);
  });

  it('refuses a genuine state for changed arguments with isError', async () => {
    const before = runs();
    const state = await askFor({ id: 'e5' });
    for (const changed of [{ id: 'e6' }, { id: 'e5', reason: 'sneaky' }]) {
      const answer = await retry(changed, state, accept);
      expect(answer.body.result).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text:
              'The approval does not match this call of "Delete an item" (delete_item) (other tool, ' +
              'arguments or user); nothing was done. Call the tool again to ask for a new approval.',
          },
        ],
      });
    }
    expect(runs()).toBe(before);
  });

  it("rejects a state minted for another principal (carol retries alice's approval) with -32602", async () => {
    const before = runs();
    const state = await askFor({ id: 'f6' });
    const answer = await retry({ id: 'f6' }, state, accept, tokens.carol);
    expect(answer.body.error).toEqual(rejectedState);
    expect(runs()).toBe(before);
  });

  it('rejects an expired state with -32602; the same state sealed with a live expiry runs once', async () => {
    // Seal states exactly as the server does (same key, same binding), once already expired and once live.
    // The binding ignores its context here (it is fixed to alice), but mint() insists on one.
    const seal = (ttlSeconds: number) =>
      createRequestStateCodec({ key: stateKey, ttlSeconds, bind: () => 'tools/call\u0000alice' }).mint(
        {
          t: 'delete_item',
          a: digest('{"id":"g7"}'),
          p: 'alice',
          n: randomUUID(),
          e: Math.floor(Date.now() / 1000) + ttlSeconds,
        },
        {} as ServerContext,
      );
    const before = runs();
    const expired = await retry({ id: 'g7' }, await seal(-1), accept);
    expect(expired.body.error).toEqual(rejectedState);
    expect(runs()).toBe(before);
    const live = await retry({ id: 'g7' }, await seal(300), accept);
    expect(live.body.result.content).toEqual([{ type: 'text', text: `deleted g7 for alice (run ${before + 1})` }]);
    expect(runs()).toBe(before + 1);
  });

  it('uses an approval once: replaying the accepted retry is refused', async () => {
    const before = runs();
    const state = await askFor({ id: 'h8' });
    const first = await retry({ id: 'h8' }, state, accept);
    expect(first.body.result.isError).toBeUndefined();
    const replay = await retry({ id: 'h8' }, state, accept);
    expect(replay.body.result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text:
            'This approval of "Delete an item" (delete_item) was already used; ' +
            'nothing was done. Call the tool again to ask for a new approval.',
        },
      ],
    });
    expect(runs()).toBe(before + 1);
  });

  it('asks again when an accepting answer comes without the state', async () => {
    const before = runs();
    const answer = await retry({ id: 'i9' }, undefined, accept);
    expect(answer.body.result.resultType).toBe('input_required');
    expect(Object.keys(answer.body.result.inputRequests)).toEqual(['confirm']);
    expect(runs()).toBe(before);
  });

  it('answers a client without the elicitation form capability with a link to the approval page', async () => {
    // approval-page.test.ts follows the link; with `approvals.page: off` the SDK's 400 -32021 answers instead.
    const before = runs();
    const answer = await rpc(
      server.url,
      'tools/call',
      { name: 'delete_item', arguments: { id: 'j0' }, _meta: envelope({}) },
      tokens.alice,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result.isError).toBe(true);
    expect(answer.body.result._meta['mcp-gen/approval'].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/approvals\//);
    expect(runs()).toBe(before);
  });
});

describe('approval over stdio', () => {
  it('asks the anonymous stdio user and runs once on accept', async () => {
    const before = runs();
    const client = new Client(
      { name: 'runtime-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const seen: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      seen.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await connectGuardedStdio(client, entry, calls);
    try {
      const result = await client.callTool({ name: 'delete_item', arguments: { id: 'k1' } });
      expect(result.isError).toBeUndefined();
      expect(result.content).toEqual([{ type: 'text', text: `deleted k1 for anonymous (run ${before + 1})` }]);
      expect(seen).toEqual(['Approve running "Delete an item" (delete_item) with arguments {"id":"k1"}?']);
    } finally {
      await client.close();
    }
    expect(runs()).toBe(before + 1);
  });
});
