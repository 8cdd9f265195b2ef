/**
 * JSON-RPC envelope checks for stdio. The SDK's stdio transport silently drops
 * lines it cannot use (bad JSON, `id: null`, a wrong `jsonrpc`, batches), so a
 * client waiting for an answer would hang. This filter sits between stdin and
 * the SDK: well-formed lines pass through unchanged; every other line is
 * answered at once with -32700 (parse error) or -32600 (invalid request), with
 * `id: null` when the id itself is unusable, as JSON-RPC 2.0 requires.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Largest accepted line, in bytes; longer lines are answered -32600 and never parsed. */
export const maxLineBytes = 4 * 1024 * 1024;

function errorLine(id: unknown, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}

/** The answer to one input line that must not reach the SDK, or null when the line is fine. */
export function rejectLine(line: string): string | null {
  if (line.trim() === '') return null;
  if (Buffer.byteLength(line, 'utf8') > maxLineBytes) return errorLine(null, -32600, 'Invalid Request: message too large');
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return errorLine(null, -32700, 'Parse error');
  }
  if (Array.isArray(message)) return errorLine(null, -32600, 'Invalid Request: batches are not supported');
  if (message === null || typeof message !== 'object') return errorLine(null, -32600, 'Invalid Request: expected a JSON-RPC object');
  const m = message as Record<string, unknown>;
  const hasId = 'id' in m;
  // MCP narrows JSON-RPC ids to strings and integers.
  const idUsable = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isSafeInteger(m.id));
  if (hasId && !idUsable) return errorLine(null, -32600, 'Invalid Request: id must be a string or a number');
  const id = hasId ? m.id : null;
  if (m.jsonrpc !== '2.0') return hasId || !('method' in m) ? errorLine(id, -32600, 'Invalid Request: jsonrpc must be "2.0"') : '';
  if ('method' in m && typeof m.method !== 'string') return hasId ? errorLine(id, -32600, 'Invalid Request: method must be a string') : '';
  // MCP params are always by name: an object, never an array.
  if ('params' in m && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) return hasId ? errorLine(id, -32600, 'Invalid Request: params must be an object') : '';
  const meta = (m.params as Record<string, unknown> | undefined)?._meta;
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta))) return hasId ? errorLine(id, -32600, 'Invalid Request: _meta must be an object') : '';
  return null;
}

/**
 * Splits stdin into lines and forwards the good ones; `answer` writes the reply
 * to a rejected line (an empty reply means: a malformed notification, dropped
 * without an answer, since notifications are never answered).
 */
export class EnvelopeFilter extends Transform {
  private pending = '';

  constructor(private readonly answer: (text: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString('utf8');
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      this.forward(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    if (Buffer.byteLength(this.pending, 'utf8') > maxLineBytes) {
      this.answer(errorLine(null, -32600, 'Invalid Request: message too large'));
      this.pending = '';
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending.trim() !== '') this.forward(this.pending);
    this.pending = '';
    done();
  }

  private forward(line: string): void {
    const rejected = rejectLine(line);
    if (rejected === null) this.push(`${line}\n`);
    else if (rejected !== '') this.answer(rejected);
  }
}
