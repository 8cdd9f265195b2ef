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
  | { readonly kind: 'command'; readonly command: string; readonly args: readonly string[] }
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

/** Connects (2026-07-28 first, 2025-11-25 only on an answer the probe does not recognise) and reads everything. */
export async function readLiveServer(target: LiveTarget): Promise<LiveServer> {
  const client = new Client({ name: 'mcp-gen', version: '1' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 10_000 } } });
  try {
    await client.connect(transportFor(target), { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new LiveError(`cannot connect to ${describeTarget(target)}: ${(error as Error).message}`);
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
      tools: has('tools') ? await readPages((cursor) => client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }), 'tools') : [],
      resources: has('resources') ? await readPages((cursor) => client.listResources(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }), 'resources') : [],
      resourceTemplates: has('resources')
        ? await readPages((cursor) => client.listResourceTemplates(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }), 'resourceTemplates')
        : [],
      prompts: has('prompts') ? await readPages((cursor) => client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs }), 'prompts') : [],
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

function transportFor(target: LiveTarget) {
  if (target.kind === 'command') return new StdioClientTransport({ command: target.command, args: [...target.args], stderr: 'ignore' });
  return new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: { ...target.headers } } });
}

/**
 * Walks the pages one cursor at a time (the first page has no cursor). The
 * client's own aggregation stops at 64 pages; this one reads up to maxPages
 * and fails rather than return a partial list.
 */
async function readPages<K extends string>(list: (cursor: string | undefined) => Promise<{ readonly nextCursor?: string | undefined } & { readonly [key in K]?: unknown }>, key: K): Promise<WireItem[]> {
  const items: WireItem[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await list(cursor);
    const found = result[key];
    if (Array.isArray(found)) items.push(...(found as WireItem[]));
    if (typeof result.nextCursor !== 'string' || result.nextCursor === '' || result.nextCursor === cursor) return items;
    cursor = result.nextCursor;
  }
  throw new LiveError(`${key} has more than ${maxPages} pages`);
}
