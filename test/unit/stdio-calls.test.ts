import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { VersionGuardTransport } from '../../templates/runtime/stdio.gen.js';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number) =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x', _meta: meta } }) as JSONRPCMessage;

/** A stdio transport stand-in: `receive` plays a client line, `sent` records what the guard writes itself. */
function fakeInner() {
  const sent: JSONRPCMessage[] = [];
  const inner = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message: JSONRPCMessage) => void sent.push(message),
  } as Transport;
  return { inner, sent, receive: (message: JSONRPCMessage) => inner.onmessage?.(message, undefined as never) };
}

// On stdio at most `maxCalls` requests are in flight: more get a JSON-RPC error at once, and an answer
// or a cancel frees a place.
describe('VersionGuardTransport in-flight cap', () => {
  it('answers -32000 over the cap, and frees places on answers and cancels', async () => {
    const { inner, sent, receive } = fakeInner();
    const guard = new VersionGuardTransport(inner, ['2026-07-28'], 2);
    const delivered: unknown[] = [];
    guard.onmessage = (message) => void delivered.push((message as { id?: unknown }).id);
    receive(request(1));
    receive(request(2));
    receive(request(3));
    expect(delivered).toEqual([1, 2]);
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'Server busy: 2 requests in flight; retry later' } },
    ]);
    await guard.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    receive(request(4));
    receive({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, _meta: meta },
    } as JSONRPCMessage);
    receive(request(5));
    expect(delivered).toEqual([1, 2, 4, undefined, 5]);
  });
});
