import { describe, expect, it } from 'vitest';
import { rejectLine } from '../../templates/runtime/stdio.gen.js';

const error = (id: unknown, code: number, message: string) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;

// The stdio envelope filter: what the SDK would drop silently gets an answer; good lines pass.
describe('rejectLine', () => {
  it('passes well-formed requests and notifications, and blank lines', () => {
    expect(rejectLine('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}')).toBeNull();
    expect(rejectLine('{"jsonrpc":"2.0","id":"a","method":"x"}')).toBeNull();
    expect(rejectLine('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}')).toBeNull();
    expect(rejectLine('   ')).toBeNull();
  });

  it('answers what cannot be a request', () => {
    expect(rejectLine('{bad')).toBe(error(null, -32700, 'Parse error'));
    expect(rejectLine('[{"jsonrpc":"2.0","id":1,"method":"x"}]')).toBe(
      error(null, -32600, 'Invalid Request: batches are not supported'),
    );
    expect(rejectLine('42')).toBe(error(null, -32600, 'Invalid Request: expected a JSON-RPC object'));
    expect(rejectLine('{"jsonrpc":"2.0","id":null,"method":"x"}')).toBe(
      error(null, -32600, 'Invalid Request: id must be a string or a number'),
    );
    expect(rejectLine('{"jsonrpc":"2.0","id":1.5,"method":"x"}')).toBe(
      error(null, -32600, 'Invalid Request: id must be a string or a number'),
    );
    expect(rejectLine('{"jsonrpc":"1.0","id":7,"method":"x"}')).toBe(
      error(7, -32600, 'Invalid Request: jsonrpc must be "2.0"'),
    );
    expect(rejectLine('{"jsonrpc":"2.0","id":8,"method":5}')).toBe(
      error(8, -32600, 'Invalid Request: method must be a string'),
    );
    expect(rejectLine('{"jsonrpc":"2.0","id":9,"method":"x","params":[1]}')).toBe(
      error(9, -32600, 'Invalid Request: params must be an object'),
    );
    expect(rejectLine('{"jsonrpc":"2.0","id":10,"method":"x","params":{"_meta":[]}}')).toBe(
      error(10, -32600, 'Invalid Request: _meta must be an object'),
    );
  });

  it('drops malformed notifications without an answer', () => {
    expect(rejectLine('{"jsonrpc":"2.0","method":"x","params":[1]}')).toBe('');
    expect(rejectLine('{"jsonrpc":"1.0","method":"x"}')).toBe('');
  });
});
