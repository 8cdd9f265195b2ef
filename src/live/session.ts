/**
 * One client session against a built server, for `mcp-gen call`, `read` and
 * `prompt`: the official client pinned to the project's protocol revision,
 * declaring form elicitation so that an approval (the `input_required` round
 * trip of a destructive tool, or `elicitation/create` on the legacy path)
 * reaches `answer`, which decides what the user said.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { protocolVersion } from '../model/defaults.js';
import { LiveError, describeTarget } from './index.js';

/** Where the server is: `node <entry>` over stdio with the caller's environment, or a Streamable HTTP URL. */
export type SessionTarget =
  | { readonly kind: 'command'; readonly command: string; readonly args: readonly string[]; readonly env: Env }
  | { readonly kind: 'url'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

type Env = Readonly<Record<string, string | undefined>>;

/** A question the server asked during a call: its text and the form it wants filled. */
export interface Question {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/** A form field's value, as elicitation allows. */
export type FieldValue = string | number | boolean | string[];

/** What the user said: accept with the form's content, or decline. */
export type Answer =
  | { readonly action: 'accept'; readonly content: Record<string, FieldValue> }
  | { readonly action: 'decline' };

export type Answerer = (question: Question) => Promise<Answer>;

const timeoutMs = 60_000;
/** The last bytes of a stdio server's stderr, shown when it fails to start or answer. */
const stderrKept = 4000;

/** An open session; `close` ends it and, over stdio, the server process. */
export interface Session {
  readonly client: Client;
  /** What the stdio server wrote on stderr so far (the last few thousand characters). */
  readonly serverStderr: () => string;
  readonly close: () => Promise<void>;
}

export async function openSession(target: SessionTarget, answer: Answerer): Promise<Session> {
  const client = new Client(
    { name: 'mcp-gen', version: '1' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: protocolVersion } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as Record<string, unknown>;
    const schema = params.requestedSchema;
    return answer({
      message: typeof params.message === 'string' ? params.message : '',
      requestedSchema: schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>) : {},
    });
  });
  let stderr = '';
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  if (target.kind === 'command') {
    const env = Object.fromEntries(
      Object.entries(target.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const stdio = new StdioClientTransport({ command: target.command, args: [...target.args], env, stderr: 'pipe' });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-stderrKept);
    });
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: { ...target.headers } },
    });
  }
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    const said = stderr.trim() === '' ? '' : `\nthe server said:\n${stderr.trim()}`;
    const shown = target.kind === 'command' ? { ...target, env: {} } : target;
    throw new LiveError(`cannot connect to ${describeTarget(shown)}: ${(error as Error).message}${said}`);
  }
  return { client, serverStderr: () => stderr, close: () => client.close().catch(() => undefined) };
}
