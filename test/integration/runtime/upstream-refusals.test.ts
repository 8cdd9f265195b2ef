import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../templates/runtime/handler.gen.js';
import { hideSecrets, logToStderr } from '../../../templates/runtime/log.gen.js';
import {
  bindTool,
  type HttpBindingSpec,
  startUpstream,
  type UpstreamSpec,
} from '../../../templates/runtime/upstream.gen.js';

// Issue 33's binding attacks, each reproduced against a recording upstream on 127.0.0.1 and refused with its exact
// message before anything is sent: path arguments that are dot segments in any encoding (which the URL parser would
// remove, leaving the operation's path with the upstream credential), control characters in header and query values
// (and in log lines), and redirects on the API request and on the OAuth 2 token request.

const seen: string[] = [];
let server: Server;
let base = '';
const config: Record<string, unknown> = { UP_TOKEN: 'secret-token', UP_ID: 'client', UP_SECRET: 's3cret' };

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    if (request.url === '/api/v1/moved') return response.writeHead(302, { location: `${base}/elsewhere` }).end();
    if (request.url === '/token-moved') return response.writeHead(307, { location: `${base}/token` }).end();
    if (request.url === '/api/v1/echo')
      return response.writeHead(401).end(JSON.stringify({ message: `bad token ${request.headers.authorization}` }));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(config, { UP_URL: `${base}/api/v1`, UP_TOKEN_URL: `${base}/token-moved` });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** `get_issue` of the issue's report: GET /repos/{owner}/{repo}/issues with a header and a query argument. */
const getIssue: HttpBindingSpec = {
  tool: 'get_issue',
  method: 'GET',
  path: '/repos/{owner}/{repo}/issues',
  args: [
    { name: 'owner', in: 'path' },
    { name: 'repo', in: 'path' },
    { name: 'lang', in: 'header' },
    { name: 'q', in: 'query' },
  ],
  body: 'application/json',
  result: 'body',
  errorMessage: null,
  structured: true,
};
const bearer: UpstreamSpec = { baseUrl: 'UP_URL', credential: { type: 'bearer', token: 'UP_TOKEN' } };
type Call = (input: Record<string, unknown>, ctx: { signal: AbortSignal }) => Promise<unknown>;

/** What a call of `binding` with `input` sends, as `METHOD path` lines, and the error it fails with (null: none). */
async function attempt(input: Record<string, unknown>, binding = getIssue, spec = bearer) {
  startUpstream(config, null);
  const at = seen.length;
  const error = await bindTool<Call>(spec, binding)(input, { signal: AbortSignal.timeout(20_000) }).then(
    () => null,
    (e: unknown) => e,
  );
  return { sent: seen.slice(at), error };
}

const segmentError = (name: string, problem: string) =>
  new ToolError(
    `The argument "${name}" ${problem}: a path argument is one segment of the operation's path; nothing was sent.`,
  );
const dots = 'is "." or ".." (in some encoding)';

describe('bindings send only what the operation names', () => {
  it('the reported payloads: ".." as owner and repo, ".." as owner with "admin" as repo, each refused', async () => {
    expect(await attempt({ owner: '..', repo: '..' })).toEqual({ sent: [], error: segmentError('owner', dots) });
    expect(await attempt({ owner: '..', repo: 'admin' })).toEqual({ sent: [], error: segmentError('owner', dots) });
    expect(await attempt({ owner: 'octo', repo: '.' })).toEqual({ sent: [], error: segmentError('repo', dots) });
  });

  it('dot segments in every encoding: percent, mixed case, double and triple, separators, ;params', async () => {
    const payloads = [
      '.',
      '..',
      '%2e',
      '%2E',
      '%2e%2e',
      '%2E%2e',
      '.%2e',
      '%2e.',
      '.%2E',
      '%252e',
      '%252E%252e',
      '.%252e',
      '%25252e%25252e',
      '../admin',
      '..%2fadmin',
      '..%2Fadmin',
      '%2e%2e%2fadmin',
      '..\\admin',
      '..%5cadmin',
      'a/../..',
      '..;',
      '..;jsessionid=1',
      '%2e%2e;x',
    ];
    for (const owner of payloads)
      expect({ owner, ...(await attempt({ owner, repo: 'r' })) }).toEqual({
        owner,
        sent: [],
        error: segmentError('owner', dots),
      });
  });

  it('an empty segment and a control character in a path argument are refused too', async () => {
    expect(await attempt({ owner: '', repo: 'r' })).toEqual({ sent: [], error: segmentError('owner', 'is empty') });
    for (const owner of ['..%00', 'a\nb', 'a%0d%0ab', '%2500'])
      expect(await attempt({ owner, repo: 'r' })).toEqual({
        sent: [],
        error: segmentError('owner', 'contains a control character'),
      });
  });

  it('ordinary segments with dots or escapes are sent, encoded, under the operation path', async () => {
    const sent = [];
    for (const owner of ['...', '.hidden', 'a.b', 'a/b', '%41', 'v1.2'])
      sent.push(...(await attempt({ owner, repo: 'r' })).sent);
    expect(sent).toEqual([
      'GET /api/v1/repos/.../r/issues',
      'GET /api/v1/repos/.hidden/r/issues',
      'GET /api/v1/repos/a.b/r/issues',
      'GET /api/v1/repos/a%2Fb/r/issues',
      'GET /api/v1/repos/%2541/r/issues',
      'GET /api/v1/repos/v1.2/r/issues',
    ]);
  });

  it('a URL that leaves the literal prefix of the operation (here by its own template) is refused', async () => {
    const escaping = { ...getIssue, path: '/repos/{owner}/../../../admin', args: [getIssue.args[0]!] };
    expect(await attempt({ owner: 'octo' }, escaping)).toEqual({
      sent: [],
      error: new ToolError(
        "The request left the operation's path (GET /repos/{owner}/../../../admin) and was refused; nothing was sent.",
      ),
    });
  });

  it('CR, LF, NUL and other control characters in header and query values are refused', async () => {
    const control = (name: string) =>
      new ToolError(`The argument "${name}" contains a control character (CR, LF, NUL or another); nothing was sent.`);
    const input = { owner: 'o', repo: 'r' };
    for (const value of ['en\r\nX-Injected: 1', 'en\nx', 'en\rx', 'en\0', 'en\x1b[2J', 'en\x7f', 'en\tx'])
      expect(await attempt({ ...input, lang: value })).toEqual({ sent: [], error: control('lang') });
    for (const value of ['a\r\nb', 'a\0'])
      expect(await attempt({ ...input, q: [value] })).toEqual({ sent: [], error: control('q') });
    expect(await attempt({ ...input, lang: 'en€' })).toEqual({
      sent: [],
      error: new ToolError('The argument "lang" has a character a header cannot carry; nothing was sent.'),
    });
    expect(await attempt({ ...input, lang: 'de-CH', q: 'a b' })).toEqual({
      sent: ['GET /api/v1/repos/o/r/issues?q=a%20b'],
      error: null,
    });
  });

  it('log lines escape control characters, so a value cannot forge a line; indented lines keep theirs', () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
    try {
      logToStderr('tool "t" failed: en\r\nshop: listening on http://0.0.0.0:80\0\x1b[2J\x7f\t');
      logToStderr('tool "t" failed: Error: boom\n    at handler (file.js:1:2)\n    at run (file.js:3:4)');
      logToStderr('shop: invalid configuration (2):\n  A is required\n  B is required\nshop: forged');
    } finally {
      process.stderr.write = write;
    }
    expect(written).toEqual([
      'tool "t" failed: en\\r\\nshop: listening on http://0.0.0.0:80\\x00\\x1b[2J\\x7f\\x09\n',
      'tool "t" failed: Error: boom\n    at handler (file.js:1:2)\n    at run (file.js:3:4)\n',
      'shop: invalid configuration (2):\n  A is required\n  B is required\\nshop: forged\n',
    ]);
  });

  it('an error answer that echoes the credential reaches the caller with the secret hidden', async () => {
    hideSecrets(config as NodeJS.ProcessEnv, ['UP_TOKEN']);
    expect(await attempt({}, { ...getIssue, path: '/echo', args: [] })).toEqual({
      sent: ['GET /api/v1/echo'],
      error: new ToolError('The upstream API refused the call (HTTP 401): "bad token Bearer ***"', 'invalid'),
    });
  });

  it('a redirect of the API request is refused and not followed', async () => {
    const moved = { ...getIssue, path: '/moved', args: [] };
    expect(await attempt({}, moved)).toEqual({
      sent: ['GET /api/v1/moved'],
      error: new ToolError(
        'The upstream API answered GET /moved with a redirect (HTTP 302), which is refused; it was not followed.',
      ),
    });
  });

  it('a redirect of the OAuth 2 token request is refused: no token, no API request', async () => {
    const oauth: UpstreamSpec = {
      baseUrl: 'UP_URL',
      credential: {
        type: 'oauth2',
        tokenUrl: 'UP_TOKEN_URL',
        clientId: 'UP_ID',
        clientSecret: 'UP_SECRET',
        scopes: [],
      },
    };
    expect(await attempt({ owner: 'o', repo: 'r' }, getIssue, oauth)).toEqual({
      sent: ['POST /token-moved'],
      error: new ToolError(
        'The upstream token endpoint answered with a redirect (HTTP 307), which is refused; it was not followed.',
      ),
    });
  });
});
