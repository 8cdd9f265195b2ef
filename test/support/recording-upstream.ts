import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A mock API on 127.0.0.1 that records every request a bound tool sends (method, request-target, headers, raw body)
// and answers each with `{}` (or what `answers` holds for its path): the tests assert where and how each parameter
// travelled, not what the API says.

/** One request as the mock received it. */
export interface Recorded {
  readonly method: string;
  /** The request-target as sent: path and query, nothing decoded. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A running recording mock. */
export interface RecordingUpstream {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  readonly seen: Recorded[];
  /** By path (the request-target without its query): a Content-Type and the body to answer with instead of `{}`. */
  readonly answers: Map<string, { readonly type: string; readonly body: Buffer }>;
  /** The requests recorded while `action` ran. */
  during(action: () => Promise<unknown>): Promise<Recorded[]>;
  close(): Promise<void>;
}

/** Starts the mock on a free loopback port. */
export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const seen: Recorded[] = [];
  const answers: RecordingUpstream['answers'] = new Map();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers.get((req.url ?? '').split('?')[0] ?? '');
      if (answer === undefined) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': answer.type }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    seen,
    answers,
    async during(action) {
      const from = seen.length;
      await action();
      return seen.slice(from);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
