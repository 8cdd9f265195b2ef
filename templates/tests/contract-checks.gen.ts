/**
 * The checks of the contract tests, one per id of DESIGN.md's verification plan (contract-types.gen.ts): what
 * contract.gen.test.ts runs for each item of the plan, against the server of contract-session.gen.ts.
 */
import assert from 'node:assert/strict';
import { registry } from '../src/generated/registry.gen.js';
import { envelope, type Message } from './contract-client.gen.js';
import type { CheckId, PlanItem } from './contract-types.gen.js';
import {
  changedArguments,
  emptyToken,
  isStub,
  mintHandle,
  sampleArguments,
  stubText,
  textOf,
  withHandles,
} from './contract-support.gen.js';
import {
  askApproval,
  bearer,
  call,
  firstListMethod,
  httpServer,
  injection,
  listedTools,
  requestId,
  stdioServer,
} from './contract-session.gen.js';

export const checks: Record<CheckId, (item: PlanItem) => Promise<void>> = {
  async notifications() {
    const http = httpServer();
    const stdio = stdioServer();
    const before = stdio.lines.length;
    stdio.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'none', _meta: envelope() } });
    await call(firstListMethod);
    assert.equal(stdio.lines.length, before + 1, 'only the request was answered');
    if (http !== null) {
      const response = await http.post(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'none', _meta: envelope() } },
        bearer(),
      );
      assert.deepEqual([response.status, response.text], [202, '']);
    }
  },
  async envelopes() {
    const stdio = stdioServer();
    assert.deepEqual((await stdio.request('{"jsonrpc": "2.0", "id": 1, bad json', null)).error.code, -32700);
    assert.deepEqual(
      (await stdio.request({ jsonrpc: '2.0', id: null, method: firstListMethod, params: { _meta: envelope() } }, null))
        .error.code,
      -32600,
    );
    assert.deepEqual(
      (await stdio.request([{ jsonrpc: '2.0', id: 'b', method: firstListMethod }] as unknown as Message, null)).error
        .code,
      -32600,
    );
    assert.deepEqual(
      (await stdio.request({ jsonrpc: '1.0', id: 'v1', method: firstListMethod, params: { _meta: envelope() } }, 'v1'))
        .error.code,
      -32600,
    );
  },
  async metadata() {
    const stdio = stdioServer();
    const id = requestId('m');
    assert.equal(
      (await stdio.request({ jsonrpc: '2.0', id, method: firstListMethod, params: {} }, id)).error.code,
      -32602,
    );
    assert.equal(
      (await call(firstListMethod, {}, { ...envelope(), 'io.modelcontextprotocol/protocolVersion': 20260728 })).error
        .code,
      -32602,
    );
    const { 'io.modelcontextprotocol/clientCapabilities': _caps, ...noCaps } = envelope();
    assert.equal((await call(firstListMethod, {}, noCaps)).error.code, -32602);
  },
  async discovery() {
    assert.deepEqual((await call('server/discover')).result, registry.discover);
  },
  async lists() {
    const lists: [string, string, string[]][] = [
      ['tools/list', 'tools', listedTools],
      ['prompts/list', 'prompts', registry.prompts.map((p) => p.name)],
      ['resources/list', 'resources', registry.resources.filter((r) => r.uri !== null).map((r) => r.name)],
      [
        'resources/templates/list',
        'resourceTemplates',
        registry.resources.filter((r) => r.uriTemplate !== null).map((r) => r.name),
      ],
    ];
    // Every page, following nextCursor (at most one page per item): each item exactly once, in registry order.
    const pages = async (method: string): Promise<Message[]> => {
      const found: Message[] = [];
      let cursor: string | undefined;
      do {
        const { result } = await call(method, cursor === undefined ? {} : { cursor });
        found.push(result);
        cursor = result.nextCursor;
      } while (cursor !== undefined && found.length <= 10_000);
      return found;
    };
    for (const [method, key, names] of lists) {
      if (names.length === 0) continue;
      const first = await pages(method);
      // A `list: handler` resource's members follow the fixed resources; they are the handler's, not the registry's.
      const listed = method === 'resources/list' && registry.resources.some((r) => r.list === true);
      const items = first.flatMap((page) => page[key].map((i: Message) => i.name));
      assert.deepEqual(listed ? items.slice(0, names.length) : items, names, `${method} in registry order`);
      assert.deepEqual([...names].sort(), names, `${method} sorted by name`);
      assert.deepEqual(await pages(method), first, `${method} is stable`);
      assert.equal((await call(method, { cursor: 'not-a-cursor' })).error.code, -32602, `${method} refuses a cursor`);
    }
  },
  async version() {
    for (let round = 0; round < 2; round++) {
      const answer = await call(firstListMethod, {}, envelope('2099-01-01'));
      assert.deepEqual(answer.error, {
        code: -32022,
        message: 'Unsupported protocol version: 2099-01-01',
        // The revisions server/discover lists: with legacy: serve, 2025-11-25 as well.
        data: { supported: [...registry.discover.supportedVersions], requested: '2099-01-01' },
      });
      assert.ok((await call(firstListMethod)).result, 'a good request after a bad one is served');
    }
  },
  async cache(item) {
    const expected = [registry.cache.ttlMs, registry.cache.scope];
    for (const method of [
      'server/discover',
      ...(registry.tools.length > 0 ? ['tools/list'] : []),
      ...(registry.prompts.length > 0 ? ['prompts/list'] : []),
    ]) {
      const { result } = await call(method);
      assert.deepEqual([result.ttlMs, result.cacheScope], expected, method);
    }
    // A read-only tool, when the server has one: this check never changes data.
    if (item.target !== undefined) {
      const { result } = await call('tools/call', { name: item.target, arguments: sampleArguments(item.target) });
      assert.deepEqual([result.ttlMs, result.cacheScope], [undefined, undefined], 'tools/call carries no cache fields');
    }
  },
  async input(item) {
    const tool = registry.tools.find((t) => t.name === item.target);
    assert.ok(tool, 'the plan names a tool with a checkable input');
    const required = (tool.inputSchema.required as string[] | undefined) ?? [];
    const args = required.length > 0 ? {} : { ...sampleArguments(tool.name), __unexpected: true };
    const { result } = await call('tools/call', { name: tool.name, arguments: args });
    assert.equal(result.isError, true);
    assert.match(textOf(result), required.length > 0 ? new RegExp(`'${required[0]}'`) : /additional properties/);
  },
  async injection(item) {
    const prompt = registry.prompts.find((p) => p.name === item.target && p.messages !== null);
    if (prompt !== undefined) {
      const args = Object.fromEntries(prompt.arguments.map((a) => [a.name, injection]));
      const { result } = await call('prompts/get', { name: prompt.name, arguments: args });
      assert.ok(
        JSON.stringify(result.messages).includes(JSON.stringify(injection).slice(1, -1)),
        'the text comes back verbatim, as data',
      );
    } else {
      const tool = registry.tools.find((t) => t.name === item.target);
      assert.ok(tool, 'the plan names a prompt or a tool');
      const { result } = await call('tools/call', {
        name: tool.name,
        arguments: withHandles(
          JSON.parse(JSON.stringify(sampleArguments(tool.name)).replace(/"example"/g, JSON.stringify(injection))),
        ),
      });
      assert.notEqual(result.resultType, 'input_required', 'data never triggers a round trip');
    }
    assert.deepEqual(
      (await call('tools/list')).result?.tools?.map((t: Message) => t.name) ?? [],
      listedTools,
      'nothing changed on the server',
    );
  },
  async headers() {
    const http = httpServer();
    assert.ok(http);
    const body = { jsonrpc: '2.0', id: 'h1', method: firstListMethod, params: { _meta: envelope() } };
    const wrongs: Record<string, string>[] = [
      { 'mcp-method': 'prompts/get' },
      { 'mcp-protocol-version': '2099-01-01' },
    ];
    for (const wrong of wrongs) {
      const response = await http.post(body, { ...bearer(), ...wrong });
      assert.equal(response.status, 400, JSON.stringify(wrong));
      assert.equal(JSON.parse(response.text).error.code, -32020, JSON.stringify(wrong));
    }
  },
  async origin() {
    const http = httpServer();
    assert.ok(http);
    const response = await http.post(
      { jsonrpc: '2.0', id: 'o1', method: firstListMethod, params: { _meta: envelope() } },
      { ...bearer(), origin: 'http://evil.example' },
    );
    assert.equal(response.status, 403);
  },
  async auth() {
    const http = httpServer();
    assert.ok(http);
    const response = await http.post({
      jsonrpc: '2.0',
      id: 'a1',
      method: firstListMethod,
      params: { _meta: envelope() },
    });
    assert.equal(response.status, 401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    const metadata = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.ok(metadata, challenge);
    // The challenge names the public URL of the metadata; this server serves it at the same path.
    const document = await fetch(new URL(new URL(metadata).pathname, http.url), {
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(document.status, 200);
    assert.ok(typeof (await document.json()).resource === 'string');
    const scoped = registry.tools.find((t) => t.scopes.length > 0);
    if (registry.auth.type === 'bearer' && scoped !== undefined) {
      const denied = await http.post(
        {
          jsonrpc: '2.0',
          id: 'a2',
          method: 'tools/call',
          params: { name: scoped.name, arguments: sampleArguments(scoped.name), _meta: envelope() },
        },
        { authorization: `Bearer ${emptyToken}` },
      );
      assert.equal(denied.status, 403);
      assert.match(denied.headers.get('www-authenticate') ?? '', /insufficient_scope/);
    }
  },
  async approval(item) {
    const { state, retry } = await askApproval(item.target ?? '');
    assert.match(textOf((await retry({ action: 'decline' }, state)).result), /declined/);
    const tampered = await retry(
      { action: 'accept', content: { confirm: true } },
      `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`,
    );
    assert.equal(tampered.error?.code, -32602, 'a tampered state is refused');
    const changed = changedArguments(item.target ?? '');
    if (changed !== null) {
      assert.match(
        textOf((await retry({ action: 'accept', content: { confirm: true } }, state, changed)).result),
        /does not match/,
      );
    }
  },
  async approved(item) {
    const name = item.target ?? '';
    const { state, retry } = await askApproval(name);
    const accepted = (await retry({ action: 'accept', content: { confirm: true } }, state)).result;
    assert.notEqual(accepted.resultType, 'input_required');
    if (isStub('tool', name)) assert.equal(textOf(accepted), stubText('tool', name), 'the handler ran');
  },
  async handle(item) {
    const kind = registry.handles.find((h) => h.name === item.target);
    assert.ok(kind);
    const consumer = kind.consumedBy[0] ?? '';
    for (const [token, why] of [
      ['forged.token.value', /not a valid/],
      [mintHandle(kind.name, 'x', -1_000), /expired/],
    ] as const) {
      const args = withHandles(
        JSON.parse(JSON.stringify(sampleArguments(consumer)).replace(/"h1\.[^"]+"/g, JSON.stringify(token))),
      );
      const { result } = await call(
        'tools/call',
        { name: consumer, arguments: args },
        envelope('2026-07-28', { elicitation: { form: {} } }),
      );
      assert.equal(result.isError, true);
      assert.match(textOf(result), why);
    }
  },
};
