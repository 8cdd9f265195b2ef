import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleCalls } from '../../src/live/console/calls.js';
import { type RunningConsole, startConsole } from '../../src/live/console/server.js';
import type { ConsoleState } from '../../src/live/console/state.js';
import { rawStatus } from '../support/raw-http.js';

// The console's HTTP side, in this process on 127.0.0.1: a client's malformed request is a 4xx, never a 500 — a
// request target the URL parser refuses, and prompt arguments or completion context that are not text.

let running: RunningConsole;
let token = '';

beforeAll(async () => {
  running = await startConsole({
    port: 0,
    assets: new Map(),
    calls: new ConsoleCalls(() => ({ kind: 'url', url: 'http://127.0.0.1:1/mcp', headers: {} }), {
      mark: () => 0,
      since: () => [],
    }),
    state: async () => ({}) as ConsoleState,
    serverUrl: () => 'http://127.0.0.1:1/mcp',
    bearer: () => false,
  });
  const shell = await (await fetch(running.url)).text();
  token = /name="mcp-gen-console-token" content="([^"]+)"/.exec(shell)?.[1] ?? '';
});

afterAll(async () => {
  await running.close();
});

const post = async (route: string, body: unknown) => {
  const response = await fetch(new URL(route, running.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mcp-gen-console-token': token },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

describe('the console server', () => {
  it('answers a request target the URL parser refuses with 400', async () => {
    const { host, port } = new URL(running.url);
    expect(await rawStatus(Number(port), `GET //[ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toBe(
      'HTTP/1.1 400 Bad Request',
    );
  });

  it('refuses prompt arguments and completion context that are not text, with 400', async () => {
    expect(token).not.toBe('');
    expect(await post('/api/prompt', { name: 'p', arguments: { a: { toString: 1 } } })).toEqual({
      status: 400,
      body: { kind: 'error', message: '/api/prompt does not take that body', code: null },
    });
    const complete = {
      ref: { type: 'ref/prompt', name: 'p' },
      argument: { name: 'a', value: 'x' },
      context: { b: { toString: 1 } },
    };
    expect(await post('/api/complete', complete)).toEqual({
      status: 400,
      body: { kind: 'error', message: '/api/complete does not take that body', code: null },
    });
  });
});
