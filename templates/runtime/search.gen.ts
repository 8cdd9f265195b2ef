/**
 * Tool search, with `discovery: search`: `tools/list` lists `search_tools` and `call_tool` (the registry's
 * `search.surface`, as written) instead of the tools, which stay registered and callable: search changes what is
 * listed, not what is served. `search_tools` ranks the tools this deployment serves (toolsets, read-only mount, a
 * request's `Mcp-Toolsets`) with BM25F over name, title, tags, description and top-level parameters, and verb
 * synonyms; the index is built once, at start. `call_tool` runs the named tool through the SDK's own `tools/call`
 * handler of the same server, so unknown and unselected names, validation, approval, idempotency, handles, deadlines
 * and the handler's span are a direct call's, with the real name; its scope challenge is the named tool's.
 */
import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import { lazySchema, type CallEnv, type SearchHooks } from './register.gen.js';
import type { RegistrySpec, ToolSpec } from './spec.gen.js';

/** Verbs a task is said with, each group meaning one action; a query word also matches the others (`weightOf`). */
const verbGroups: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'make', 'open', 'post', 'insert', 'file', 'start', 'register', 'store', 'publish'],
  ['delete', 'remove', 'destroy', 'erase', 'drop', 'clear', 'discard', 'unset'],
  ['list', 'all', 'enumerate', 'browse', 'index'],
  ['update', 'edit', 'modify', 'change', 'set', 'patch', 'rename', 'replace'],
  ['get', 'fetch', 'read', 'show', 'view', 'retrieve', 'see', 'look', 'describe', 'inspect', 'details'],
  ['search', 'find', 'query', 'lookup', 'filter'],
  ['cancel', 'stop', 'abort', 'halt'],
  // The caller's own things: APIs say "authenticated user", "current user" or "me" where people say "my".
  ['authenticated', 'my', 'me', 'mine', 'own', 'current', 'self'],
  ['send', 'post', 'deliver', 'publish'],
  ['download', 'export', 'fetch'],
  ['upload', 'import', 'attach'],
  ['check', 'verify', 'test', 'validate'],
];

/** Short forms (as stems) read as the word they stand for, at full weight. */
const shortForms: Readonly<Record<string, string>> = { repo: 'repository', org: 'organization' };

/**
 * What a synonym's match counts: APIs name actions with the first verb of a group (create, delete, list, update, get,
 * ...), so it counts more than the others, which match only where an API chose that word.
 */
const weightOf = (synonym: string): number => (heads.has(synonym) ? 0.7 : 0.35);

/** Words that say nothing about which tool a task needs. */
const stopwords = new Set(
  (
    'a an the to of for in on at by with from and or i is are be been this that it its as into your you we our ' +
    'us can could do does how what which who whom want would like please some any there their them he she his her ' +
    'via using use so if then than also just about'
  ).split(' '),
);

/** A word's stem: plural, -ing and -ed endings and a final e dropped, so "created", "creates", "create" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const bare =
    w.length > 5 && w.endsWith('ing') ? w.slice(0, -3) : w.length > 4 && w.endsWith('ed') ? w.slice(0, -2) : '';
  if (bare !== '') w = bare.length >= 5 && /([^aeiouylsz])\1$/.test(bare) ? bare.slice(0, -1) : bare;
  // Who does or receives it: "reviewer" and "assignee" meet "review" and "assign".
  if (w.length >= 7 && /(er|ee)$/.test(w)) w = w.slice(0, -2);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** The stems of `text`: split at case changes and at anything but letters and digits, lower-cased, stopwords out. */
export function terms(text: string): string[] {
  return text
    .replace(/https?:\/\/\S*/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter((word) => word.length > 1 && !stopwords.has(word))
    .map((word) => shortForms[stem(word)] ?? stem(word));
}

/** Each stem's synonyms, from `verbGroups`, and the group it counts in (its first group's first verb). */
const synonyms = new Map<string, Set<string>>();
const groupOf = new Map<string, string>();
const heads = new Set(verbGroups.map((group) => stem(group[0] ?? '')));
for (const group of verbGroups)
  for (const word of group) {
    const own = stem(word);
    const known = synonyms.get(own) ?? new Set<string>();
    for (const other of group) if (stem(other) !== own) known.add(stem(other));
    synonyms.set(own, known);
    if (!groupOf.has(own)) groupOf.set(own, stem(group[0] ?? word));
  }

/** One searchable tool: each field's term counts and length, in `fieldWeights` order. */
interface Document {
  readonly name: string;
  readonly fields: readonly { readonly counts: ReadonlyMap<string, number>; readonly length: number }[];
}

/** The weight of each field of a tool (BM25F: each field's length is normalized on its own, then weighted). */
const fieldWeights = [2, 3, 2, 0.5, 0.5, 0.25] as const; // name, title, tags, description, parameters, their text

/** What the index reads of a tool. */
export type Searchable = Pick<ToolSpec, 'name' | 'title' | 'description' | 'inputSchema'> & {
  readonly tags: readonly string[];
};

/** The fields of one tool, in `fieldWeights` order. */
function documentOf(tool: Searchable): Document {
  const properties = (tool.inputSchema.properties ?? {}) as Readonly<Record<string, { description?: unknown }>>;
  const texts = [
    tool.name,
    tool.title ?? '',
    tool.tags.join(' '),
    tool.description,
    Object.keys(properties).join(' '),
    Object.values(properties)
      .map((p) => (typeof p?.description === 'string' ? p.description : ''))
      .join(' '),
  ];
  const fields = texts.map((text) => {
    const counts = new Map<string, number>();
    const words = terms(text);
    for (const term of words) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { counts, length: words.length };
  });
  return { name: tool.name, fields };
}

/** BM25F (Okapi BM25 over weighted fields) over a fixed set of tools. */
export class ToolIndex {
  private readonly documents: readonly Document[];
  private readonly frequency = new Map<string, number>();
  private readonly averages: readonly number[];

  constructor(
    tools: readonly Searchable[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.documents = tools.map(documentOf);
    for (const doc of this.documents) {
      const seen = new Set(doc.fields.flatMap((field) => [...field.counts.keys()]));
      for (const term of seen) this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
    }
    this.averages = fieldWeights.map((_, i) => {
      const total = this.documents.reduce((sum, doc) => sum + (doc.fields[i]?.length ?? 0), 0);
      return this.documents.length === 0 || total === 0 ? 1 : total / this.documents.length;
    });
  }

  /** The names of the best `limit` matches of `query` among the tools `accept` keeps, best first (ties by name). */
  search(query: string, limit: number, accept: (name: string) => boolean = () => true): string[] {
    // Words of one verb group ("open a new issue") count once: the best of them, or of their synonyms.
    const groups = new Map<string, { words: Set<string>; others: Set<string> }>();
    for (const word of terms(query)) {
      const key = groupOf.get(word) ?? word;
      const group = groups.get(key) ?? { words: new Set<string>(), others: new Set<string>() };
      group.words.add(word);
      for (const other of synonyms.get(word) ?? []) group.others.add(other);
      groups.set(key, group);
    }
    const scored: { readonly name: string; readonly score: number }[] = [];
    for (const doc of this.documents) {
      if (!accept(doc.name)) continue;
      let score = 0;
      for (const { words, others } of groups.values()) {
        let best = 0;
        for (const word of words) best = Math.max(best, this.score(doc, word));
        for (const other of others)
          if (!words.has(other)) best = Math.max(best, weightOf(other) * this.score(doc, other));
        score += best;
      }
      if (score > 0) scored.push({ name: doc.name, score });
    }
    scored.sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    return scored.slice(0, limit).map((s) => s.name);
  }

  private score(doc: Document, term: string): number {
    let count = 0;
    doc.fields.forEach((field, i) => {
      const raw = field.counts.get(term) ?? 0;
      if (raw > 0)
        count += ((fieldWeights[i] ?? 0) * raw) / (1 - this.b + (this.b * field.length) / (this.averages[i] ?? 1));
    });
    if (count === 0) return 0;
    const n = this.documents.length;
    const df = this.frequency.get(term) ?? 0;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    return (idf * count * (this.k1 + 1)) / (count + this.k1);
  }
}

/** The SDK's `tools/call` handler before its wrapper: lookup, validation, the tool's handler, result shaping. */
type CallHandler = (request: unknown, ctx: ServerContext) => Promise<CallToolResult>;

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** The index of the tools of `registry` this deployment serves (`tools`), with their tags. */
export function toolIndex(registry: RegistrySpec, tools: ReadonlySet<string>): ToolIndex {
  const tags = registry.search?.tags ?? {};
  return new ToolIndex(
    registry.tools.filter((t) => tools.has(t.name)).map((t) => ({ ...t, tags: tags[t.name] ?? [] })),
  );
}

/** The search surface of `registry`, over the tools this deployment serves (`tools`), indexed once. */
export function searchHooks(registry: RegistrySpec, tools: ReadonlySet<string>): SearchHooks {
  const search = registry.search ?? { surface: [], tags: {} };
  const byName = new Map(registry.tools.map((tool) => [tool.name, tool]));
  const index = toolIndex(registry, tools);
  const surface = new Set(search.surface.map((tool) => tool.name));
  const descriptor = (tool: ToolSpec) => ({
    name: tool.name,
    ...(tool.title === null ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { ...tool.annotations },
  });

  return {
    attach(server: McpServer, served: (name: string) => boolean, env: CallEnv): void {
      const sdk = server.server as unknown as {
        _requestHandlers: Map<string, unknown>;
        setRequestHandler(method: string, ...rest: unknown[]): void;
        _getRequestHandler(method: string): ((request: unknown, ctx: ServerContext) => Promise<unknown>) | undefined;
      };
      const mcp = server as unknown as { _toolHandlersInitialized: boolean; setToolRequestHandlers(): void };
      // McpServer installs its tools/call handler when it is built, and the Server keeps it wrapped. Installed once
      // more here, it is kept as given too: lookup, validation, the tool's handler and result shaping, nothing else.
      let call: CallHandler | undefined;
      const install = sdk.setRequestHandler;
      sdk._requestHandlers.delete('tools/call');
      sdk._requestHandlers.delete('tools/list');
      mcp._toolHandlersInitialized = false;
      sdk.setRequestHandler = function (this: unknown, method: string, ...rest: unknown[]) {
        if (method === 'tools/call') call = rest[0] as CallHandler;
        return (install as (...args: unknown[]) => void).call(this, method, ...rest);
      };
      try {
        mcp.setToolRequestHandlers();
      } finally {
        delete (sdk as { setRequestHandler?: unknown }).setRequestHandler;
      }
      if (call === undefined) throw new Error('search: the SDK installed no tools/call handler');
      for (const tool of search.surface) {
        const { name, title, description, inputSchema, outputSchema, annotations } = tool;
        const run =
          name === 'search_tools'
            ? // Without a limit, 5: the schema's default.
              async ({ query, limit }: { query: string; limit?: number }) => {
                const found = index.search(query, limit ?? 5, served).flatMap((n) => {
                  const spec = byName.get(n);
                  return spec === undefined ? [] : [descriptor(spec)];
                });
                return {
                  content: [{ type: 'text' as const, text: JSON.stringify({ tools: found }) }],
                  structuredContent: { tools: found },
                };
              }
            : async (args: { name: string; arguments?: Record<string, unknown> }, ctx: ServerContext) => {
                if (surface.has(args.name))
                  return toolError(`call_tool calls the server's tools, not ${args.name}; call it directly.`);
                if (byName.get(args.name)?.task === 'required' && served(args.name))
                  return toolError(`The tool "${args.name}" runs only as a task: call it with tools/call.`);
                const request = { method: 'tools/call', params: { name: args.name, arguments: args.arguments ?? {} } };
                const dispatch = () => (call as CallHandler)(request, ctx);
                const attributes = { 'gen_ai.tool.name': args.name, 'gen_ai.operation.name': 'execute_tool' };
                return env.telemetry === null
                  ? dispatch()
                  : env.telemetry.withSpan(`tools/call ${args.name}`, attributes, dispatch);
              };
        server.registerTool(
          name,
          {
            title,
            description,
            inputSchema: lazySchema(inputSchema),
            ...(outputSchema === undefined ? {} : { outputSchema: lazySchema(outputSchema) }),
            annotations: { ...annotations },
            // call_tool asks for the named tool's scopes (HTTP 403 insufficient_scope), as a direct call would.
            ...(name === 'call_tool'
              ? {
                  scopeChallenge: (context: { request: { params?: { arguments?: { name?: unknown } } } }) => {
                    const target = context.request.params?.arguments?.name;
                    if (typeof target !== 'string' || surface.has(target)) return undefined;
                    const request = { ...context.request, method: 'tools/call', params: { name: target } };
                    return server.resolveScopeChallenge({ ...context, request } as never);
                  },
                }
              : {}),
          } as never,
          run as never,
        );
      }
      // tools/list: only the surface; the tools registered after it stay callable.
      const list = sdk._getRequestHandler('tools/list');
      if (list !== undefined)
        sdk.setRequestHandler('tools/list', async (request: unknown, ctx: ServerContext) => {
          const result = (await list(request, ctx)) as { tools: { name: string }[] };
          return { ...result, tools: result.tools.filter((tool) => surface.has(tool.name)) };
        });
    },
  };
}
