import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { exportJWK, type CryptoKey } from 'jose';
import { repoRoot } from './golden.js';
import { protocolVersion } from './paths.js';

/** Compiles a generated project with its own tsconfig into `outDir`; returns the entry point. */
export function compileProject(projectDir: string, outDir: string): string {
  const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
  const result = spawnSync(tsc, ['-p', path.join(projectDir, 'tsconfig.json'), '--outDir', outDir], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`tsc failed:\n${result.stdout}${result.stderr}`);
  return path.join(outDir, 'src', 'main.js');
}

/** A server process spoken to with raw newline-delimited JSON-RPC over stdio. */
export interface RawStdio {
  readonly child: ChildProcessWithoutNullStreams;
  /** Sends one message; resolves with the response carrying the same id (bounded by `timeoutMs`). */
  request(message: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends a line without waiting for an answer. */
  send(line: string): void;
  /** Every stdout line seen so far, parsed or not. */
  readonly lines: string[];
  readonly stderr: () => string;
  close(): Promise<number | null>;
}

/** Starts `node entry` with stdio pipes and a line reader on stdout. */
export function startRawStdio(entry: string, env: NodeJS.ProcessEnv = {}): RawStdio {
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const waiters = new Map<unknown, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    try {
      const message = JSON.parse(line) as Record<string, unknown>;
      waiters.get(message.id)?.(message);
    } catch {
      // not JSON: kept in `lines` so a test can fail on it
    }
  });
  return {
    child,
    lines,
    stderr: () => stderr,
    send: (line) => child.stdin.write(`${line}\n`),
    request: (message, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no answer to ${JSON.stringify(message)} within ${timeoutMs} ms; stderr: ${stderr}`)),
          timeoutMs,
        );
        waiters.set(message.id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        child.stdin.write(`${JSON.stringify(message)}\n`);
      }),
    close: () =>
      new Promise((resolve) => {
        // Graceful exit can take seconds on a busy machine; SIGKILL only ends a real hang.
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
        child.stdin.end();
      }),
  };
}

/**
 * A request's `_meta`: the envelope of `version` with the client's info and `capabilities` (none by default). The
 * runtime harness's `envelope` is the 2026-07-28 one of a client that can answer forms.
 */
export function metaOf(version: string = protocolVersion, capabilities: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  };
}

/** A JWKS document served on 127.0.0.1, as an OAuth issuer publishes its signing keys. */
export interface JwksServer {
  readonly server: Server;
  /** `http://127.0.0.1:<port>/jwks.json`. */
  readonly url: string;
}

/** Serves `publicKey` as the only key (kid `k1`, RS256) at `/jwks.json`; every other path is 404. */
export async function startJwks(publicKey: CryptoKey): Promise<JwksServer> {
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/jwks.json' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(req.url === '/jwks.json' ? JSON.stringify({ keys: [jwk] }) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}/jwks.json` };
}

/** What the client answers to `elicitation/create`; every request it saw is kept in `seen`. */
export interface Elicitor {
  answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };
  /** Runs inside the elicitation handler, i.e. after the server answered input_required and before the retry. */
  onAsk?: (params: Record<string, unknown>) => void;
  readonly seen: Record<string, unknown>[];
}
