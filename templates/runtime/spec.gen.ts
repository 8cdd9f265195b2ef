/**
 * The shape of `registry.gen.ts`: everything the runtime needs to know about
 * the server, as plain data. mcp-gen writes the registry; the runtime reads it.
 */

/** Freshness of a cacheable result. */
export type CacheSpec = { readonly ttlMs: number; readonly scope: 'public' | 'private' };

/** An icon, sent as declared; its lists are mutable, as the SDK's `Icon` takes them. */
export type IconSpec = { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' };

/** Where a state handle appears in a tool's input or output schema (a JSON pointer into the schema). */
export type HandleUseSpec = { readonly kind: string; readonly pointer: string };

/** What a list result says of an item but its name, schemas and arguments; the runtime hands it to the SDK as is. */
export interface ToolListing {
  readonly title?: string;
  readonly description: string;
  readonly icons?: IconSpec[];
  readonly annotations: Readonly<Record<string, boolean>>;
}

export interface ResourceListing {
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: IconSpec[];
  readonly annotations?: { audience?: ('user' | 'assistant')[]; priority?: number; lastModified?: string };
  readonly size?: number;
}

export interface PromptListing {
  readonly title?: string;
  readonly description?: string;
  readonly icons?: IconSpec[];
}

export interface ToolSpec {
  readonly name: string;
  readonly listing: ToolListing;
  /** JSON Schema 2020-12 as sent on the wire (`$handle` lowered to a string). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>> | null;
  readonly approval: 'confirm' | 'none';
  /** `key`: the input carries an `idempotencyKey` and the store's ledger answers retries (idempotency.gen.ts). */
  readonly idempotency: 'key' | 'none';
  readonly scopes: readonly string[];
  /** With `auth.grants`: the scopes that admit it by class, narrowest first; a call needs one of them too. */
  readonly grantedBy?: readonly string[];
  /** The toolsets that hold it; none: listed in every selection. */
  readonly toolsets: readonly string[];
  readonly handles: { readonly consumes: readonly HandleUseSpec[]; readonly issues: readonly HandleUseSpec[] };
  readonly timeoutMs: number; // then ctx.signal aborts and the call answers a tool error
  /** Whether a call may (`optional`) or must (`required`) run as a durable task (tasks.gen.ts); `none`: never. */
  readonly task: 'none' | 'optional' | 'required';
  /** `input`: a call without `inputResponses` runs in the request; the one that answers it becomes the task. */
  readonly taskStart: 'call' | 'input';
  /** How long such a task and its result stay readable with tasks/get. */
  readonly taskTtlMs: number;
}

export interface ResourceSpec {
  readonly name: string;
  readonly uri: string | null;
  readonly uriTemplate: string | null;
  readonly listing: ResourceListing;
  readonly cache: CacheSpec;
  /** Values completion/complete offers per URI template variable; null when none are declared. */
  readonly completions: Readonly<Record<string, readonly string[]>> | null;
  /** `list: handler`: resources/list also lists the members a list handler returns (resources.gen.ts). */
  readonly list?: true;
  /** The template variables a completion handler completes. */
  readonly complete?: readonly string[];
}

/** `completions`: the values completion/complete offers for this argument; null when none are declared. */
export type PromptArgumentSpec = {
  readonly name: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly required: boolean;
  readonly completions: readonly string[] | null;
};

export interface PromptSpec {
  readonly name: string;
  readonly listing: PromptListing;
  readonly arguments: readonly PromptArgumentSpec[];
  /** Fixed messages with `{{argument}}` placeholders, or null when a handler builds them. */
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[] | null;
  /** The arguments a completion handler completes. */
  readonly complete?: readonly string[];
}

export type HandleSpec = {
  readonly name: string;
  readonly description: string;
  readonly ttlMs: number;
  readonly issuedBy: readonly string[];
  readonly consumedBy: readonly string[];
};

type Scopes = readonly { readonly name: string; readonly description: string }[];

/** `resource` of bearer: the public URL of the MCP endpoint, or null to name where the server listens. */
export type AuthSpec =
  | { readonly type: 'none'; readonly scopes: Scopes }
  | { readonly type: 'bearer'; readonly tokensEnv: string; readonly resource: string | null; readonly scopes: Scopes }
  | {
      readonly type: 'oauth';
      readonly issuer: string;
      readonly jwksUri: string;
      readonly resource: string;
      readonly scopes: Scopes;
    };

/** One variable of the manifest's `config`: read from the environment and checked at start (config.gen.ts). */
export type ConfigVarSpec = {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'url';
  readonly required: boolean;
  readonly default: string | number | boolean | null;
  /** Its value is never printed, not even in the error that refuses it. */
  readonly secret: boolean;
};

/** Where used approvals and the idempotency ledger live (store.gen.ts, shipped only when a tool needs it). */
export type StoreSpec =
  | { readonly type: 'memory'; readonly idempotencyTtlMs: number }
  | { readonly type: 'redis'; readonly urlEnv: string; readonly idempotencyTtlMs: number };

export type HttpSpec = {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly allowedOrigins: readonly string[];
  readonly maxConcurrentCalls: number;
  readonly maxBufferedBytes: number;
  readonly shutdownGraceMs: number;
  readonly maxListenStreams: number;
  readonly maxListenStreamsPerPrincipal: number;
  readonly listenKeepAliveMs: number;
  readonly listenIdleMs: number;
};

/**
 * The `server/discover` result, decided by mcp-gen and printed in DESIGN.md.
 * The runtime configures the SDK from it (capabilities, instructions, cache,
 * identity), so the design report and the server cannot disagree.
 */
export interface DiscoverSpec {
  readonly supportedVersions: readonly string[];
  /**
   * `completions` is `{}`; a list kind carries `listChanged` (and resources `subscribe`) when it announces changes;
   * `extensions` names the Tasks extension when used.
   */
  readonly capabilities: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly instructions?: string;
  readonly resultType: string;
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
  readonly _meta: {
    readonly 'io.modelcontextprotocol/serverInfo': {
      readonly name: string;
      readonly title?: string;
      readonly version: string;
      readonly description?: string;
      readonly icons?: IconSpec[];
    };
  };
}

/**
 * How the lists are paged: `size` items a page; `cursors.<list>[i]` is the opaque `nextCursor` that leads to the page
 * at offset `(i + 1) * size`. Any other cursor is refused (-32602).
 */
export type PagesSpec = {
  readonly size: number;
  /** Where each tools/list page starts, when a page was cut by bytes before it held `size` tools. */
  readonly toolStarts?: readonly number[];
  readonly cursors: {
    readonly tools: readonly string[];
    readonly prompts: readonly string[];
    readonly resources: readonly string[];
    readonly resourceTemplates: readonly string[];
  };
};

/** The changes the server announces (manifest `notifications`); the capabilities declare exactly these. */
export type NotificationsSpec = {
  readonly listChanged: readonly ('tools' | 'resources' | 'prompts')[];
  readonly resourceUpdates: boolean;
};

/** `search_tools` and `call_tool` as tools/list sends them, and the `tags` of each tool that has some. */
export type SearchSpec = {
  readonly surface: readonly (Pick<ToolSpec, 'name' | 'inputSchema'> &
    Omit<ToolListing, 'icons'> & {
      readonly title: string;
      readonly outputSchema?: Readonly<Record<string, unknown>>;
    })[];
  readonly tags: Readonly<Record<string, readonly string[]>>;
};

/** The whole registry. Every list is sorted by name. */
export interface RegistrySpec {
  readonly discover: DiscoverSpec;
  readonly server: {
    readonly name: string;
    readonly version: string;
    readonly title: string | null;
    readonly description: string | null;
    readonly instructions: string | null;
  };
  readonly protocol: { readonly versions: readonly string[]; readonly legacy: 'serve' | 'reject' };
  readonly cache: CacheSpec;
  readonly transports: {
    readonly stdio: { readonly maxConcurrentCalls: number } | null;
    readonly http: HttpSpec | null;
  };
  readonly auth: AuthSpec;
  readonly secrets: { readonly handleKeyEnv: string; readonly requestStateKeyEnv: string };
  /** The manifest's `config`, sorted by name; what `setup` receives as `Config`. */
  readonly config: readonly ConfigVarSpec[];
  readonly store: StoreSpec;
  /** `approvals`: the page (approval-page.gen.ts) and how long an approval lasts. */
  readonly approvals: { readonly page: 'fallback' | 'always' | 'off'; readonly ttlMs: number };
  readonly tools: readonly ToolSpec[];
  /**
   * Which tools a deployment serves: the toolsets `toolsetsEnv` names (comma list, or `all`; unset: each `default`),
   * only read-only tools with `readOnlyEnv=1`; an HTTP request narrows further with `Mcp-Toolsets`.
   */
  readonly selection: {
    readonly toolsetsEnv: string;
    readonly readOnlyEnv: string;
    readonly toolsets: readonly { readonly name: string; readonly default: boolean }[];
  };
  /** `discovery: search` (search.gen.ts): what tools/list lists instead of the tools; null: the tools. */
  readonly search: SearchSpec | null;
  readonly resources: readonly ResourceSpec[];
  readonly prompts: readonly PromptSpec[];
  readonly pages: PagesSpec;
  readonly notifications: NotificationsSpec;
  /** `sha256:` digest of the tools as tools/list sends them; `mcp-gen verify` compares a live server with it. */
  readonly toolsetDigest: string;
  readonly handles: readonly HandleSpec[];
}
