import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// An oracle independent of the SDK client: the tools/list pages exactly as a server writes them
// on stdout, read with raw newline-delimited JSON-RPC.

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
};

/** Every tool of every tools/list page; `modern` sends the 2026-07-28 envelope, else a 2025-11-25 initialize first. */
export async function rawTools(
  command: string,
  args: readonly string[],
  modern: boolean,
): Promise<Record<string, unknown>[]> {
  const child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '' } });
  const waiters = new Map<number, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (typeof message.id === 'number') waiters.get(message.id)?.(message);
    } catch {
      // not JSON-RPC: ignored
    }
  });
  let id = 0;
  const request = (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      id += 1;
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within 20 s`)), 20_000);
      waiters.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    if (!modern) {
      await request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1.0.0' },
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    }
    const tools: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page += 1) {
      const params: Record<string, unknown> = modern ? { _meta: envelope } : {};
      if (cursor !== undefined) params.cursor = cursor;
      const answer = await request('tools/list', params);
      const result = answer.result as { tools: Record<string, unknown>[]; nextCursor?: string };
      tools.push(...result.tools);
      if (result.nextCursor === undefined) return tools;
      cursor = result.nextCursor;
    }
    throw new Error('more than 100 pages');
  } finally {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) {
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await new Promise((resolve) => child.once('exit', resolve));
      clearTimeout(timer);
    }
  }
}
