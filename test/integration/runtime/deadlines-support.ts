import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { modernHeaders } from '../protocol/support.js';
import { envelope, generateAndCompile, repoRoot } from './harness.js';

// The deadlines fixture: tools that wait for their signal, ignore it, report progress in a tight loop or measure
// a large body, and the raw HTTP call that can drop its connection or see a 503.

const manifest = `mcpGen: 1
server: { name: deadlines, version: 1.0.0 }
transports:
  stdio: { maxConcurrentCalls: 2 }
  http: { host: 127.0.0.1, port: 3000, path: /mcp, shutdownGrace: 2s }
tools:
  wait:
    description: Waits until its signal aborts, then says when.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input:
      type: object
      properties: { tag: { type: string, maxLength: 20 } }
      required: [tag]
      additionalProperties: false
  stubborn:
    description: Sleeps for the given time, ignoring its signal.
    annotations: { readOnlyHint: true, openWorldHint: false }
    timeout: 3s
    input:
      type: object
      properties: { ms: { type: integer } }
      required: [ms]
      additionalProperties: false
  chatty:
    description: Reports progress 2000 times in a tight loop, then answers.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, properties: {}, additionalProperties: false }
  measure:
    description: Answers the length of a large text.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input:
      type: object
      properties: { data: { type: string } }
      required: [data]
      additionalProperties: false
`;

const handlers = {
  'src/handlers/tools/wait.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const waitHandler: ToolHandler<'wait'> = async (input, ctx) => {
  process.stderr.write(\`started \${input.tag}\\n\`);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 60_000);
    ctx.signal.addEventListener('abort', () => {
      process.stderr.write(\`aborted \${input.tag} at \${Date.now()}\\n\`);
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
  return 'late';
};
`,
  'src/handlers/tools/stubborn.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const stubbornHandler: ToolHandler<'stubborn'> = async (input) => {
  process.stderr.write('started stubborn\\n');
  await new Promise((resolve) => setTimeout(resolve, input.ms));
  return 'done';
};
`,
  'src/handlers/tools/chatty.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const chattyHandler: ToolHandler<'chatty'> = async (_input, ctx) => {
  const started = Date.now();
  for (let done = 1; done <= 2000; done++) await ctx.progress(done, 2000);
  const elapsed = Date.now() - started;
  // The client drops progress it handles after the answer: give the notifications a head start.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return String(elapsed);
};
`,
  'src/handlers/tools/measure.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const measureHandler: ToolHandler<'measure'> = async (input) => String(input.data.length);
`,
};

/** Generates and compiles the fixture; returns its entry point. */
export function buildDeadlines(): string {
  const manifestPath = path.join(repoRoot, '.test-out', 'runtime-deadlines.yaml');
  mkdirSync(path.dirname(manifestPath), { recursive: true });
  writeFileSync(manifestPath, manifest);
  return generateAndCompile(manifestPath, 'runtime-deadlines', handlers);
}

/** Resolves with the first match of `pattern` in the growing `text()`, polling every 5 ms for at most `ms`. */
export async function waitFor(text: () => string, pattern: RegExp, ms = 30_000): Promise<RegExpExecArray> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 5))) {
    const match = pattern.exec(text());
    if (match !== null) return match;
  }
  throw new Error(`no ${pattern} within ${ms} ms in: ${text()}`);
}

/** How many times `pattern` (global) occurs in `text`. */
export const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

/** One raw tools/call POST; resolves with the status, Retry-After and body, or rejects when the connection fails. */
export function post(
  url: URL,
  name: string,
  args: Record<string, unknown>,
  id: number,
): { done: Promise<{ status: number; retryAfter: string | undefined; body: any }>; abort: () => void } {
  const params = { name, arguments: args, _meta: envelope({}) };
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }));
  const req = httpRequest(url, {
    method: 'POST',
    headers: { ...modernHeaders('tools/call', params), 'content-length': String(body.length) },
  });
  // The server may answer 503 and close before a refused body is all sent: the rest then fails with EPIPE on
  // a socket the finished request has already let go of.
  req.on('socket', (socket) => socket.on('error', () => undefined));
  const done = new Promise<{ status: number; retryAfter: string | undefined; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const data = text.split('\n').filter((line) => line.startsWith('data: '));
        const json = data.length > 0 ? (data[data.length - 1] ?? '').slice(6) : text;
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          body: json === '' ? null : JSON.parse(json),
        });
      });
    });
  });
  req.end(body);
  return { done, abort: () => req.destroy() };
}
