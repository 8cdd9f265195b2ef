import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRawStdio, type RawStdio } from '../../support/servers.js';
import {
  buildProto,
  call,
  meta,
  protoInfo,
  protoKeys,
  repoRoot,
  runsIn,
  startHttp,
  type HttpChild,
} from './support.js';

// State handles on a generated server: a forged, tampered, wrong-kind or expired handle is a tool
// error saying so, and the handler does not run. (A handle of another principal is covered in
// test/integration/runtime/bearer.test.ts.) Every case runs over HTTP and over stdio.

const dir = path.join(repoRoot, '.test-out', 'protocol-handles-logs');
const logs = { http: path.join(dir, 'http.log'), stdio: path.join(dir, 'stdio.log') };
let http: HttpChild;
let stdio: RawStdio;

beforeAll(async () => {
  const entry = buildProto();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  http = await startHttp(entry, { ...protoKeys, PROTO_CALLS: logs.http });
  stdio = startRawStdio(entry, { ...protoKeys, PROTO_CALLS: logs.stdio });
}, 120_000);

afterAll(async () => {
  await Promise.all([http?.stop(), stdio?.close()]);
});

type Transport = 'http' | 'stdio';
let nextId = 1;

/** Calls tool `name` over `transport`; returns the result object. */
async function callTool(
  transport: Transport,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, any>> {
  const params = { name, arguments: args, _meta: meta() };
  const id = nextId++;
  if (transport === 'http') return (await call(http.url, 'tools/call', params, id)).body.result;
  return (await stdio.request({ jsonrpc: '2.0', id, method: 'tools/call', params })).result as Record<string, any>;
}

const toolError = (text: string) => ({
  content: [{ type: 'text', text }],
  isError: true,
  resultType: 'complete',
  _meta: protoInfo,
});

/** Replaces the character at `index` of `text` with a different base64url character. */
const flip = (text: string, index: number) =>
  `${text.slice(0, index)}${text[index] === 'A' ? 'B' : 'A'}${text.slice(index + 1)}`;

for (const transport of ['http', 'stdio'] as const) {
  describe(`state handles over ${transport}`, () => {
    it('accepts a genuine handle and runs the handler once (the control case)', async () => {
      const { draft } = (await callTool(transport, 'open_draft', { name: 'ok' })).structuredContent;
      expect(await callTool(transport, 'use_draft', { draft })).toEqual({
        content: [{ type: 'text', text: 'used draft-ok' }],
        resultType: 'complete',
        _meta: protoInfo,
      });
      expect(runsIn(logs[transport]).filter((line) => line.startsWith('use_draft'))).toEqual(['use_draft draft-ok']);
    });

    it('refuses a forged handle (made up, or with signature or payload altered) before the handler', async () => {
      const before = runsIn(logs[transport]).length;
      const { draft } = (await callTool(transport, 'open_draft', { name: 'x' })).structuredContent;
      const [prefix, body = '', mac = ''] = (draft as string).split('.');
      const otherBody = Buffer.from(
        Buffer.from(body, 'base64url').toString('utf8').replace('draft-x', 'draft-y'),
      ).toString('base64url');
      const forgeries = [
        'h1.e30.AAAA',
        'not-a-handle',
        'h1..',
        `${prefix}.${body}.${flip(mac, 5)}`,
        `${prefix}.${otherBody}.${mac}`,
        `${draft}.extra`,
        `h0.${body}.${mac}`,
      ];
      for (const forged of forgeries) {
        expect([forged, await callTool(transport, 'use_draft', { draft: forged })]).toEqual([
          forged,
          toolError('Invalid arguments for tool use_draft: not a valid draft handle'),
        ]);
      }
      expect(runsIn(logs[transport]).slice(before)).toEqual(['open_draft']);
    });

    it('refuses a handle of the wrong kind without running the handler', async () => {
      const before = runsIn(logs[transport]).length;
      const { flash } = (await callTool(transport, 'open_flash', {})).structuredContent;
      expect(await callTool(transport, 'use_draft', { draft: flash })).toEqual(
        toolError('Invalid arguments for tool use_draft: expected a draft handle, got a flash handle'),
      );
      expect(runsIn(logs[transport]).slice(before)).toEqual(['open_flash']);
    });

    it('refuses an expired handle without running the handler', async () => {
      const before = runsIn(logs[transport]).length;
      // flash handles live 1 ms (ttlMs: 1 in the manifest).
      const { flash } = (await callTool(transport, 'open_flash', {})).structuredContent;
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await callTool(transport, 'use_flash', { flash })).toEqual(
        toolError('Invalid arguments for tool use_flash: this flash handle has expired; start again to get a new one'),
      );
      expect(runsIn(logs[transport]).slice(before)).toEqual(['open_flash']);
    });
  });
}

describe('state handles across transports and keys', () => {
  it('accepts on stdio a handle minted over HTTP by another process with the same key', async () => {
    const { draft } = (await callTool('http', 'open_draft', { name: 'shared' })).structuredContent;
    expect((await callTool('stdio', 'use_draft', { draft })).content).toEqual([
      { type: 'text', text: 'used draft-shared' },
    ]);
  });

  it('refuses a handle minted by a server with another key', async () => {
    const stranger = startRawStdio(buildProto(), { PROTO_HANDLE_KEY: 'a-completely-different-handle-key-0123456789' });
    try {
      const minted = await stranger.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'open_draft', arguments: { name: 'evil' }, _meta: meta() },
      });
      const { draft } = (minted.result as { structuredContent: { draft: string } }).structuredContent;
      expect(await callTool('http', 'use_draft', { draft })).toEqual(
        toolError('Invalid arguments for tool use_draft: not a valid draft handle'),
      );
      expect(runsIn(logs.http).filter((line) => line.includes('evil'))).toEqual([]);
    } finally {
      await stranger.close();
    }
  });
});
