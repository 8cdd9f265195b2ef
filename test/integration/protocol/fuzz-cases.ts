import { meta, version } from './support.js';

// The messages of the bounded fuzz tests (fuzz-http.test.ts, fuzz-stdio.test.ts): drawn from a seeded PRNG, each
// with the answer its category calls for, and the check of an answer against it.

export const RSS_GROWTH_LIMIT_KB = 100 * 1024;

/** mulberry32: a small, seedable PRNG, so every run sends the same messages. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What a message must be answered with: an HTTP status (HTTP only), and
 * a JSON-RPC error code, an isError text, a plain result, or nothing.
 */
interface Expected {
  readonly status?: number;
  readonly code?: number;
  /** The id the answer must carry; undefined = the request's own id. */
  readonly id?: null;
  readonly toolError?: RegExp;
  readonly result?: true;
  readonly silent?: true;
}

export interface Case {
  readonly category: string;
  /** The raw line/body. */
  readonly body: string;
  readonly headers?: Record<string, string>;
  readonly id: number | string | null;
  readonly expected: Expected;
}

const deep = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
export const json = (value: unknown): string => String(JSON.stringify(value));

/** The i-th fuzz case for `transport`, drawn with `random`. */
export function makeCase(i: number, random: () => number, transport: 'http' | 'stdio'): Case {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const word = (length: number): string =>
    Array.from({ length }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  const id = i + 1;
  const request = (method: string, params: Record<string, unknown>) => json({ jsonrpc: '2.0', id, method, params });
  const categories = [
    'parse',
    'non-object',
    'batch',
    'bad-id',
    'bad-params',
    'bad-version-type',
    'bad-capabilities',
    'unsupported-version',
    'unknown-method',
    'forged-handle',
    'forged-state',
    'null-name',
    'odd-id',
    'notification',
    'deep-nesting',
    'huge-string',
    ...(transport === 'http'
      ? ['header-mismatch', 'missing-version-header', 'foreign-origin', 'wrong-content-type']
      : []),
  ];
  // 1 MB strings and 10,000-deep nesting are expensive: every 50th message is one of them.
  const category =
    i % 50 === 0
      ? 'huge-string'
      : i % 50 === 25
        ? 'deep-nesting'
        : pick(
            categories
              .slice(0, -2 - (transport === 'http' ? 4 : 0))
              .concat(transport === 'http' ? categories.slice(-4) : []),
          );
  switch (category) {
    case 'parse':
      return {
        category,
        id: null,
        body: `{"jsonrpc":"2.0","id":${id},${word(1 + Math.floor(random() * 20))}`,
        expected: { status: 400, code: -32700, id: null },
      };
    case 'non-object':
      return {
        category,
        id: null,
        body: pick(['42', '"text"', 'true', 'null', '-1.5e3']),
        expected: { status: 400, code: -32600, id: null },
      };
    case 'batch':
      return {
        category,
        id: null,
        body: json([{ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta() } }]),
        expected: { status: 400, code: -32600, id: null },
      };
    case 'bad-id':
      return {
        category,
        id: null,
        body: json({
          jsonrpc: '2.0',
          id: pick([null, {}, true, [1]]),
          method: 'tools/list',
          params: { _meta: meta() },
        }),
        expected: { status: 400, code: -32600, id: null },
      };
    case 'bad-params':
      return {
        category,
        id,
        body: json({ jsonrpc: '2.0', id, method: 'tools/list', params: pick(['x', 7, null, false]) }),
        expected: { status: 400, code: -32600 },
      };
    case 'bad-version-type':
      return {
        category,
        id,
        body: request('tools/list', { _meta: meta({}, pick([20260728, null, {}, ['2026-07-28'], true])) }),
        expected: { status: 400, code: -32602 },
      };
    case 'bad-capabilities': {
      const _meta = {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientCapabilities': pick(['all', 3, null, [], true]),
      };
      return { category, id, body: request('tools/list', { _meta }), expected: { status: 400, code: -32602 } };
    }
    case 'unsupported-version': {
      const year = 1990 + Math.floor(random() * 30);
      const requested = `${year}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`;
      return {
        category,
        id,
        body: request('tools/list', { _meta: meta({}, requested) }),
        headers: { 'mcp-protocol-version': requested },
        expected: { status: 400, code: -32022 },
      };
    }
    case 'unknown-method': {
      const method = `${word(4)}/${word(6)}`;
      return {
        category,
        id,
        body: request(method, { _meta: meta() }),
        headers: { 'mcp-method': method },
        expected: { status: 404, code: -32601 },
      };
    }
    case 'forged-handle': {
      const draft = pick([`h1.${word(12)}.${word(43)}`, word(30), `h1.e30.${word(43)}`]);
      return {
        category,
        id,
        body: request('tools/call', { name: 'use_draft', arguments: { draft }, _meta: meta() }),
        headers: { 'mcp-method': 'tools/call', 'mcp-name': 'use_draft' },
        expected: { status: 200, toolError: /^Invalid arguments for tool use_draft: not a valid draft handle$/ },
      };
    }
    case 'forged-state': {
      const params = {
        name: 'remove_note',
        arguments: { id: word(5) },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: `${word(10)}.${word(40)}`,
        _meta: meta({ elicitation: {} }),
      };
      return {
        category,
        id,
        body: request('tools/call', params),
        headers: { 'mcp-method': 'tools/call', 'mcp-name': 'remove_note' },
        expected: { status: 200, code: -32602 },
      };
    }
    case 'null-name':
      return {
        category,
        id,
        body: request('tools/call', { name: null, arguments: pick([{}, null]), _meta: meta() }),
        headers: { 'mcp-method': 'tools/call' },
        expected: { status: 200, code: -32602 },
      };
    case 'odd-id': {
      const odd = pick([`id-${word(8)}`, -id, id * 1000003, '']);
      return {
        category,
        id: odd,
        body: json({ jsonrpc: '2.0', id: odd, method: 'tools/list', params: { _meta: meta() } }),
        expected: { status: 200, result: true },
      };
    }
    case 'notification': {
      const method = pick(['notifications/cancelled', `notifications/${word(5)}`]);
      return {
        category,
        id: null,
        body: json({ jsonrpc: '2.0', method, params: { requestId: id } }),
        headers: { 'mcp-method': method },
        expected: { status: 202, silent: true },
      };
    }
    case 'deep-nesting':
      return {
        category,
        id,
        body:
          `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo",` +
          `"_meta":${json(meta())},"arguments":{"text":${deep(10_000)}}}}`,
        headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
        expected: {
          status: 200,
          toolError: /^Input validation error: Invalid arguments for tool echo: data\/text must be string$/,
        },
      };
    case 'huge-string':
      return {
        category,
        id,
        body: request('tools/call', { name: 'echo', arguments: { text: word(8).repeat(131_072) }, _meta: meta() }),
        headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
        expected: { status: 200, toolError: /must NOT have more than 100 characters$/ },
      };
    case 'header-mismatch':
      return {
        category,
        id,
        body: request('tools/list', { _meta: meta() }),
        headers: { 'mcp-method': pick(['tools/call', 'TOOLS/LIST', word(9)]) },
        expected: { status: 400, code: -32020 },
      };
    case 'missing-version-header':
      return {
        category,
        id,
        body: request('tools/list', { _meta: meta() }),
        headers: { 'mcp-protocol-version': '' },
        expected: { status: 400, code: -32020 },
      };
    case 'foreign-origin':
      return {
        category,
        id: null,
        body: request('tools/list', { _meta: meta() }),
        headers: { origin: `https://${word(7)}.example` },
        expected: { status: 403, code: -32000, id: null },
      };
    default:
      return {
        category: 'wrong-content-type',
        id: null,
        body: request('tools/list', { _meta: meta() }),
        headers: { 'content-type': pick(['text/plain', 'application/xml']) },
        expected: { status: 415, code: -31415, id: null },
      };
  }
}

/** Why `answer` (status null on stdio) does not fit `c`, or null when it does. */
export function mismatch(c: Case, status: number | null, answer: any): string | null {
  const { expected } = c;
  const problems: string[] = [];
  if (status !== null && expected.status !== undefined && status !== expected.status)
    problems.push(`status ${status}, expected ${expected.status}`);
  if (expected.silent)
    return answer === null || answer === undefined
      ? problems.length
        ? problems.join('; ')
        : null
      : `expected no answer, got ${json(answer).slice(0, 200)}`;
  if (answer?.jsonrpc !== '2.0') problems.push('not a JSON-RPC answer');
  const id = expected.id === null ? null : c.id;
  if (answer?.id !== id) problems.push(`id ${json(answer?.id)}, expected ${json(id)}`);
  if (expected.code !== undefined && answer?.error?.code !== expected.code)
    problems.push(`code ${answer?.error?.code}, expected ${expected.code}`);
  if (
    expected.code === -32022 &&
    answer?.error?.data?.requested !== JSON.parse(c.body).params._meta['io.modelcontextprotocol/protocolVersion']
  )
    problems.push('data.requested does not echo the version');
  if (
    expected.toolError &&
    !(answer?.result?.isError === true && expected.toolError.test(answer.result.content?.[0]?.text ?? ''))
  )
    problems.push(`expected a tool error ${expected.toolError}`);
  if (expected.result && answer?.result?.resultType !== 'complete') problems.push('expected a complete result');
  return problems.length === 0 ? null : `${problems.join('; ')}: ${json(answer).slice(0, 200)}`;
}
