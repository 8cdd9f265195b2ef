import { describe, expect, it } from 'vitest';
import { EnvelopeFilter, maxLineBytes, rejectLine } from '../../templates/runtime/stdio.gen.js';

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

/** What `chunks` (written one by one, then the end) give: the lines passed on to the SDK, and the filter's answers. */
async function filtered(chunks: readonly Buffer[]): Promise<{ passed: string; answers: string[] }> {
  const answers: string[] = [];
  const filter = new EnvelopeFilter((text) => answers.push(text));
  let passed = '';
  filter.on('data', (chunk: Buffer | string) => {
    passed += chunk.toString();
  });
  const ended = new Promise((resolve) => filter.once('end', resolve));
  for (const chunk of chunks) filter.write(chunk);
  filter.end();
  await ended;
  return { passed, answers };
}

describe('EnvelopeFilter', () => {
  const line = (text: string) =>
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text } } });

  it('decodes a character whose UTF-8 bytes arrive in two chunks as that character', async () => {
    const bytes = Buffer.from(`${line('é😀')}\n`, 'utf8');
    const cut = bytes.indexOf(Buffer.from('é', 'utf8')) + 1;
    const emoji = bytes.indexOf(Buffer.from('😀', 'utf8')) + 2;
    const { passed, answers } = await filtered([
      bytes.subarray(0, cut),
      bytes.subarray(cut, emoji),
      bytes.subarray(emoji),
    ]);
    expect(passed).toBe(`${line('é😀')}\n`);
    expect(answers).toEqual([]);
  });

  it('answers a line over the cap once, drops the rest of it, and serves the next line', async () => {
    // The tail of the oversized line is a request of its own: it must not run.
    const tail = `${line('smuggled')}\n`;
    const next = `${line('next')}\n`;
    const head = Buffer.from(`{"pad":"${'A'.repeat(maxLineBytes)}`);
    const { passed, answers } = await filtered([
      head.subarray(0, 65_536),
      head.subarray(65_536),
      Buffer.from('A'.repeat(maxLineBytes + 1)),
      Buffer.from(tail + next),
    ]);
    expect(answers).toEqual([error(null, -32600, 'Invalid Request: message too large')]);
    expect(passed).toBe(next);
  });

  it('passes a CR-LF line without its CR, and a last line without a newline at the end of input', async () => {
    const { passed, answers } = await filtered([Buffer.from(`${line('a')}\r\n${line('b')}`)]);
    expect(passed).toBe(`${line('a')}\n${line('b')}\n`);
    expect(answers).toEqual([]);
  });

  it('answers nothing more for an oversized line that the end of input cuts off', async () => {
    const { passed, answers } = await filtered([Buffer.from(`{"pad":"${'A'.repeat(maxLineBytes)}`), Buffer.from('"}')]);
    expect(answers).toEqual([error(null, -32600, 'Invalid Request: message too large')]);
    expect(passed).toBe('');
  });
});
