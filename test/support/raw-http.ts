import { connect } from 'node:net';

/**
 * The status line of the answer to `request`, sent as raw bytes to `port` on 127.0.0.1: for request targets that
 * fetch would never send (`//[`).
 */
export function rawStatus(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}
