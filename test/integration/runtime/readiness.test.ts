import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelope,
  generateAndCompile,
  get,
  repoRoot,
  rpc,
  runToExit,
  startHttpServer,
  type RunningServer,
} from './harness.js';

// The readiness checks a project's src/setup.ts exports (`ready`), over real HTTP without any backend: a check that
// reads a file flips /readyz between 200 and 503 (with the reason it returns, never what it throws), a check that
// does not settle is aborted and counts as failing, and a name of a built-in check stops the server at start. A
// handler's refused connection reaches the client with the retryable flag; any other exception without it.

const manifest = `mcpGen: 1
server: { name: ready-probe, version: 1.0.0 }
transports:
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
tools:
  fetch_row:
    description: Reads a row from a backend that may be unreachable.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input:
      type: object
      properties: { fail: { enum: [refused, bug] } }
      required: [fail]
      additionalProperties: false
`;

const setup = `import { existsSync, readFileSync } from 'node:fs';
import type { Config, ReadyChecks, SetupTools } from './generated/index.gen.js';

export async function setup(_config: Config, _tools: SetupTools) {
  return { state: process.env.PROBE_STATE ?? '', hang: process.env.PROBE_HANG ?? '' };
}

export const ready: ReadyChecks = {
  backend: ({ state }) => {
    const found = existsSync(state) ? readFileSync(state, 'utf8') : 'up';
    if (found === 'throw') throw new Error('secret detail of the backend');
    if (found === 'false') return false;
    return found === 'up' ? true : found;
  },
  queue: ({ hang }, signal) =>
    existsSync(hang)
      ? new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            process.stderr.write('queue check aborted\\n');
            resolve(true);
          }),
        )
      : undefined,
};
`;

const handler = `import type { ToolHandler } from '../../generated/index.gen.js';

export const fetchRowHandler: ToolHandler<'fetch_row'> = async (input) => {
  if (input.fail === 'refused') {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    throw new Error('query failed', { cause: refused });
  }
  throw new Error('a bug in the handler');
};
`;

const dir = path.join(repoRoot, '.test-out', 'runtime-readiness');
const state = path.join(dir, 'state');
const hang = path.join(dir, 'hang');
let entry = '';
let server: RunningServer;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  rmSync(state, { force: true });
  rmSync(hang, { force: true });
  const source = path.join(dir, 'ready-probe.yaml');
  writeFileSync(source, manifest);
  entry = generateAndCompile(source, 'runtime-readiness/project', {
    'src/setup.ts': setup,
    'src/handlers/tools/fetch_row.ts': handler,
  });
  server = await startHttpServer(entry, { PROBE_STATE: state, PROBE_HANG: hang });
}, 240_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

const readyz = async () => {
  const answer = await get(new URL('/readyz', server.url));
  return [answer.status, answer.body];
};
const checks = (backend: string, queue = 'ok') => ({ startup: 'ok', backend, queue, shutdown: 'ok' });

describe("setup.ts's ready checks on /readyz", () => {
  it('answer 200 while every check passes', async () => {
    expect(await readyz()).toEqual([200, { status: 'ok', checks: checks('ok') }]);
  });

  it('answer 503 with the returned reason while a check fails, and 200 again once it passes', async () => {
    writeFileSync(state, 'the backend is in maintenance');
    expect(await readyz()).toEqual([
      503,
      {
        status: 'unavailable',
        checks: checks('down'),
        reasons: { backend: 'the backend is in maintenance' },
      },
    ]);
    writeFileSync(state, 'false');
    expect(await readyz()).toEqual([503, { status: 'unavailable', checks: checks('down') }]);
    rmSync(state);
    expect(await readyz()).toEqual([200, { status: 'ok', checks: checks('ok') }]);
  });

  it('show no thrown message, which goes to stderr once per change of state', async () => {
    writeFileSync(state, 'throw');
    expect(await readyz()).toEqual([503, { status: 'unavailable', checks: checks('down') }]);
    expect(await readyz()).toEqual([503, { status: 'unavailable', checks: checks('down') }]);
    rmSync(state);
    expect(await readyz()).toEqual([200, { status: 'ok', checks: checks('ok') }]);
    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('readyz: '));
    expect(lines).toEqual([
      'readyz: check "backend" is down: the backend is in maintenance',
      'readyz: check "backend" is down: returned false',
      'readyz: check "backend" is ok again',
      'readyz: check "backend" is down: secret detail of the backend',
      'readyz: check "backend" is ok again',
    ]);
  });

  it('count a check that does not settle within 500 ms as failing, and abort its signal', async () => {
    writeFileSync(hang, '');
    const started = Date.now();
    expect(await readyz()).toEqual([503, { status: 'unavailable', checks: checks('ok', 'down') }]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.stderr()).toContain('queue check aborted\n');
    expect(server.stderr()).toContain('readyz: check "queue" is down: no answer within 500 ms\n');
    rmSync(hang);
    expect(await readyz()).toEqual([200, { status: 'ok', checks: checks('ok') }]);
  });
});

describe('a connection failure thrown by a handler', () => {
  it('is a tool error with the retryable flag; any other exception has none', async () => {
    const call = (fail: string) =>
      rpc(server.url, 'tools/call', { name: 'fetch_row', arguments: { fail }, _meta: envelope() });
    const text = 'The tool "fetch_row" failed. Details were logged on the server.';
    const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'ready-probe', version: '1.0.0' } };
    expect((await call('refused')).body.result).toEqual({
      content: [{ type: 'text', text }],
      isError: true,
      resultType: 'complete',
      _meta: { ...serverInfo, 'mcp-gen/error': { retryable: true } },
    });
    expect((await call('bug')).body.result).toEqual({
      content: [{ type: 'text', text }],
      isError: true,
      resultType: 'complete',
      _meta: serverInfo,
    });
  });
});

describe('a ready check named like a built-in one', () => {
  it('stops the server at start, before setup runs', () => {
    const project = path.join(dir, 'project');
    writeFileSync(
      path.join(project, 'dist', 'src', 'setup.js'),
      "export const setup = () => { process.stderr.write('setup ran\\n'); return {}; };\n" +
        'export const ready = { store: () => true };\n',
    );
    const result = runToExit(entry, ['--transport', 'http', '--port', '0'], {});
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      'ready-probe: setup failed: the ready check "store" has the name of a built-in check',
    );
    expect(result.stderr).not.toContain('setup ran');
  });
});
