/**
 * live: the only module that starts processes or opens network connections.
 * In: a target (a command to spawn for stdio, or an MCP endpoint URL with
 * optional headers). Out: everything the server tells a client, as plain data:
 * its era and version, `server/discover` (modern) or `initialize` (legacy)
 * answers, and every page of tools, resources, resource templates and prompts.
 * Nothing here interprets what it read; import and verify do.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** Where the server is: a command run with stdio pipes, or a Streamable HTTP endpoint. */
export type LiveTarget =
  | {
      readonly kind: 'command';
      readonly command: string;
      readonly args: readonly string[];
      /** The whole environment of the child; without it, this process's (as a host passes its own). */
      readonly env?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'url'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** One list item exactly as the client received it. */
export type WireItem = Readonly<Record<string, unknown>>;

/** What a server said about itself, read over the wire. */
export interface LiveServer {
  /** The protocol revision the connection settled on. */
  readonly protocolVersion: string;
  /** `modern` when the server answered `server/discover`; `legacy` after a 2025 `initialize`. */
  readonly era: 'modern' | 'legacy';
  readonly serverInfo: WireItem;
  readonly capabilities: WireItem;
  readonly instructions: string | null;
  /** `supportedVersions` of `server/discover`; for a legacy server, the one version it answered. */
  readonly supportedVersions: readonly string[];
  readonly tools: readonly WireItem[];
  readonly resources: readonly WireItem[];
  readonly resourceTemplates: readonly WireItem[];
  readonly prompts: readonly WireItem[];
}

/** A server that could not be reached or answered nonsense; the message says which. */
export class LiveError extends Error {}

/** Hard cap on pages of one list: a server whose cursor never ends cannot keep us reading. */
const maxPages = 1000;
const timeoutMs = 30_000;
/** Every list is read from the server, never from the client's response cache. */
const fresh = { timeout: timeoutMs, cacheMode: 'bypass' } as const;

/** Connects (2026-07-28 first, 2025-11-25 only on an answer the probe does not recognise) and reads everything. */
export async function readLiveServer(target: LiveTarget): Promise<LiveServer> {
  // The client walks every page of a list itself (following nextCursor) up to listMaxPages, and fails
  // rather than return a partial list.
  const client = new Client(
    { name: 'mcp-gen', version: '1' },
    { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 10_000 } }, listMaxPages: maxPages },
  );
  const transport = transportFor(target);
  const stderr = transport instanceof StdioClientTransport ? stderrTail(transport) : null;
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    const said = stderr === null ? '' : await stderr.text();
    throw new LiveError(`cannot connect to ${describeTarget(target)}: ${(error as Error).message}${said}`);
  }
  try {
    const capabilities = (client.getServerCapabilities() ?? {}) as WireItem;
    const discover = client.getDiscoverResult();
    const protocolVersion = client.getNegotiatedProtocolVersion() ?? 'unknown';
    const era = client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
    const has = (kind: string) => capabilities[kind] !== undefined;
    return {
      protocolVersion,
      era,
      serverInfo: { ...(client.getServerVersion() ?? {}) } as WireItem,
      capabilities,
      instructions: client.getInstructions() ?? null,
      supportedVersions: discover === undefined ? [protocolVersion] : [...discover.supportedVersions],
      tools: has('tools') ? items((await client.listTools(undefined, fresh)).tools) : [],
      resources: has('resources') ? items((await client.listResources(undefined, fresh)).resources) : [],
      resourceTemplates: has('resources')
        ? items((await client.listResourceTemplates(undefined, fresh)).resourceTemplates)
        : [],
      prompts: has('prompts') ? items((await client.listPrompts(undefined, fresh)).prompts) : [],
    };
  } catch (error) {
    throw new LiveError(`${describeTarget(target)} failed while listing: ${(error as Error).message}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** `node server.js` or the URL without credentials or query (either may hold a secret), for messages and drafts. */
export function describeTarget(target: LiveTarget): string {
  if (target.kind === 'command') return [target.command, ...target.args].join(' ');
  if (!URL.canParse(target.url)) return target.url;
  const url = new URL(target.url);
  url.username = '';
  url.password = '';
  url.search = '';
  return url.href;
}

/** The last bytes a server writes on stderr: enough for the message of one that dies before answering. */
const stderrBytes = 4096;
/** How long a dead server's last stderr bytes may take to arrive after its connection closed. */
const stderrDrainMs = 2000;

/**
 * Collects the tail of the child's stderr; `text()` gives it as lines to append to an error (empty when the
 * server wrote nothing), once the stream has ended or the drain bound has passed.
 */
function stderrTail(transport: StdioClientTransport): { readonly text: () => Promise<string> } {
  let tail = Buffer.alloc(0);
  const stream = transport.stderr;
  const ended = new Promise<void>((resolve) => {
    if (stream === null) return resolve();
    stream.on('data', (chunk: Buffer) => {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > stderrBytes) tail = tail.subarray(tail.length - stderrBytes);
    });
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
  return {
    text: async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, stderrDrainMs)))]);
      clearTimeout(timer);
      // The server's own text, shown on a terminal: no escape sequence of it reaches one.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is replaced
      const text = tail.toString('utf8').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '?');
      const lines = text.replace(/\s+$/, '').split('\n');
      if (lines.join('') === '') return '';
      return `\n  the server's stderr:\n${lines.map((line) => `    ${line}`).join('\n')}`;
    },
  };
}

function transportFor(target: LiveTarget) {
  if (target.kind === 'command')
    return new StdioClientTransport({
      command: target.command,
      args: [...target.args],
      env: target.env ?? inheritedEnvironment(),
      stderr: 'pipe',
    });
  return new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { ...target.headers } } });
}

function inheritedEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

function items(list: readonly object[]): WireItem[] {
  return list.map((item) => ({ ...item }) as WireItem);
}
