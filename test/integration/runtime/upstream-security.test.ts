import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindTool,
  type HttpBindingSpec,
  startUpstream,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';
import { recordingUpstream, type Seen } from './recorder.js';

// Security per operation, against a recording server on 127.0.0.1: a public operation is sent without credentials
// (and works with none configured), the first configured alternative is used, a combination sends every credential,
// basic authentication with an empty password, and an API key in a cookie.

const seen: Seen[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  ({ server, base } = await recordingUpstream(seen, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;
const spec: UpstreamSpec = {
  baseUrl: 'SEC_URL',
  credential: { type: 'bearer', token: 'SEC_TOKEN' },
  credentials: {
    basic: { type: 'basic', username: 'SEC_USER', password: 'SEC_PASSWORD' },
    bearer: { type: 'bearer', token: 'SEC_TOKEN' },
    cookie: { type: 'apiKey', in: 'cookie', name: 'session', value: 'SEC_SESSION' },
    key: { type: 'apiKey', in: 'header', name: 'x-api-key', value: 'SEC_KEY' },
  },
};
const binding = (security: HttpBindingSpec['security']): HttpBindingSpec => ({
  tool: 't',
  method: 'GET',
  path: '/things',
  args: [{ name: 'theme', in: 'cookie' }],
  body: 'application/json',
  result: 'body',
  errorMessage: null,
  structured: true,
  ...(security === undefined ? {} : { security }),
});

/** The credential headers of the request the call sent (null when none left), and the error message (or null). */
async function exchange(security: HttpBindingSpec['security'], variables: Record<string, string>, input = {}) {
  const at = seen.length;
  startUpstream({ SEC_URL: base, ...variables }, null);
  let error: string | null = null;
  try {
    await bindTool<Call>(spec, binding(security))(input, { signal: AbortSignal.timeout(20_000) });
  } catch (e) {
    error = (e as Error).message;
  }
  const s = seen[at];
  const sent =
    s === undefined
      ? null
      : { authorization: s.headers.authorization, key: s.headers['x-api-key'], cookie: s.headers.cookie };
  return { sent, error };
}

describe('each operation sends the credentials its security requirement names', () => {
  it('a public operation (security: []) is sent without credentials, configured or not', async () => {
    const unset = { sent: { authorization: undefined, key: undefined, cookie: undefined }, error: null };
    expect(await exchange([], {})).toEqual(unset);
    expect(await exchange([], { SEC_TOKEN: 't', SEC_KEY: 'k' })).toEqual(unset);
  });

  it('without security the default credential is required, and nothing leaves without it', async () => {
    expect(await exchange(undefined, {})).toEqual({
      sent: null,
      error: 'The upstream credential is not configured: set SEC_TOKEN in the environment.',
    });
    expect((await exchange(undefined, { SEC_TOKEN: 't' })).sent?.authorization).toBe('Bearer t');
  });

  it('alternatives: the first whose variables are all set is used', async () => {
    expect((await exchange([['bearer'], ['key']], { SEC_KEY: 'k' })).sent).toEqual({
      authorization: undefined,
      key: 'k',
      cookie: undefined,
    });
    expect((await exchange([['bearer'], ['key']], { SEC_KEY: 'k', SEC_TOKEN: 't' })).sent).toEqual({
      authorization: 'Bearer t',
      key: undefined,
      cookie: undefined,
    });
    expect(await exchange([['bearer'], ['key']], {})).toEqual({
      sent: null,
      error: 'The upstream credential is not configured: set SEC_TOKEN in the environment.',
    });
  });

  it('a combination sends every credential of it, or none when one is unset', async () => {
    expect((await exchange([['bearer', 'key']], { SEC_KEY: 'k', SEC_TOKEN: 't' })).sent).toEqual({
      authorization: 'Bearer t',
      key: 'k',
      cookie: undefined,
    });
    expect(await exchange([['bearer', 'key']], { SEC_KEY: 'k' })).toEqual({
      sent: null,
      error: 'The upstream credential is not configured: set SEC_TOKEN in the environment.',
    });
  });

  it('basic authentication with an empty password', async () => {
    const basic = `Basic ${Buffer.from('ann:').toString('base64')}`;
    expect((await exchange([['basic']], { SEC_USER: 'ann' })).sent?.authorization).toBe(basic);
    expect((await exchange([['basic']], { SEC_USER: 'ann', SEC_PASSWORD: '' })).sent?.authorization).toBe(basic);
  });

  it('an API key in a cookie, beside a cookie argument', async () => {
    expect((await exchange([['cookie']], { SEC_SESSION: 's 1' }, { theme: 'dark' })).sent?.cookie).toBe(
      'theme=dark; session=s%201',
    );
  });
});
