import { connect } from 'node:net';

/**
 * The whole answer to `request`, sent as raw bytes to `port` on 127.0.0.1, as text: for requests that fetch would
 * never send (`//[`, a Content-Length with no body behind it).
 */
export function rawAnswer(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The status line of the answer to `request` (see `rawAnswer`). */
export async function rawStatus(port: number, request: string): Promise<string> {
  return (await rawAnswer(port, request)).split('\r\n')[0] ?? '';
}
