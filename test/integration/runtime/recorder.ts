import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a recording upstream received. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** The body's bytes as they arrived. */
  readonly bytes: Buffer;
}

/**
 * An upstream on 127.0.0.1 that records every request with its whole body in `seen`, then lets `answer` respond.
 * Resolves with the server and its base URL once it listens.
 */
export async function recordingUpstream(
  seen: Seen[],
  answer: (request: Seen, response: ServerResponse) => void,
): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const one = { method: request.method ?? '', url: request.url ?? '', headers: request.headers };
      const bytes = Buffer.concat(chunks);
      const recorded = { ...one, body: bytes.toString(), bytes };
      seen.push(recorded);
      answer(recorded, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
