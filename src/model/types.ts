/**
 * The IR between normalize and the emitters: plain, readonly, sorted data with every default applied and every
 * generated name decided. No YAML nodes, no functions. Absent optional values are `null`, never missing keys,
 * so that emitters can tell "not given" apart without re-reading the manifest.
 */
import type { HttpBindingModel, UpstreamModel } from './bindings.js';

export type { ArgumentLocation, HttpBindingModel, UpstreamCredentialModel, UpstreamModel } from './bindings.js';

import type { IconModel } from './metadata.js';
import type { NotificationsModel } from './notifications.js';

export type { IconModel, ResourceAnnotationsModel } from './metadata.js';
export type { HttpModel, StdioModel, TransportsModel } from './transports.js';
import type { TransportsModel } from './transports.js';
import type { CacheModel, PromptModel, ResourceModel } from './content.js';

export type {
  CacheModel,
  ExtraHandlerNames,
  HandlerNames,
  PromptArgumentModel,
  PromptMessageModel,
  PromptModel,
  ResourceModel,
} from './content.js';

/** A JSON Schema as plain JSON data. */
export type JsonSchema = { readonly [key: string]: unknown };

export interface ServerInfoModel {
  readonly name: string;
  readonly version: string;
  /** `serverInfo.version` when it is not `version` (an imported version that is not semantic); null: `version`. */
  readonly wireVersion: string | null;
  readonly title: string | null;
  readonly description: string | null;
  readonly instructions: string | null;
  /** `server.icons`, sent in serverInfo; empty when none. */
  readonly icons: readonly IconModel[];
}

export interface ProtocolModel {
  /** Revisions served on the modern (stateless) path, as declared. */
  readonly versions: readonly string[];
  /** What happens to 2025-11-25 handshake-era clients. */
  readonly legacy: 'serve' | 'reject';
}

export interface ScopeModel {
  readonly name: string;
  readonly description: string;
}

/** One entry of `auth.grants`: a scope and the class of tools it admits (consent by annotation). */
export interface GrantModel {
  readonly scope: string;
  readonly admits: 'readOnly' | 'nonDestructive' | 'all';
}

/** `grants`, sorted by scope; empty without `auth.grants`. */
type Granted = { readonly grants: readonly GrantModel[] };

export type AuthModel = Granted &
  (
    | { readonly type: 'none'; readonly scopes: readonly ScopeModel[] }
    | {
        readonly type: 'bearer';
        readonly tokensEnv: string;
        readonly resource: string | null;
        readonly scopes: readonly ScopeModel[];
      }
    | {
        readonly type: 'oauth';
        readonly issuer: string;
        readonly jwksUri: string;
        readonly resource: string;
        readonly scopes: readonly ScopeModel[];
      }
  );

/** Environment variables the generated server reads its signing keys from. */
/** How a `config` variable's text is read: `integer` and `number` become numbers, `url` stays a checked string. */
export type ConfigType = 'string' | 'integer' | 'number' | 'boolean' | 'url';

/** One environment variable of the manifest's `config` section. */
export interface ConfigVarModel {
  readonly name: string;
  readonly description: string;
  readonly type: ConfigType;
  /** False when a default is given, unless the manifest says otherwise. */
  readonly required: boolean;
  /** Of the variable's type (validate checked it), or null. */
  readonly default: string | number | boolean | null;
  readonly secret: boolean;
  readonly pointer: string;
}

export interface SecretsModel {
  readonly handleKeyEnv: string;
  readonly requestStateKeyEnv: string;
}

/**
 * Where consumed approvals and the idempotency ledger live: `memory` is one
 * process; `redis` (the URL in `urlEnv`) is shared by every instance.
 */
export type StoreModel =
  | { readonly type: 'memory'; readonly idempotencyTtlMs: number }
  | { readonly type: 'redis'; readonly urlEnv: string; readonly idempotencyTtlMs: number };

/**
 * How safe a retry of a tool is: `safe` (read-only or idempotent), `conditional`
 * (mutating, but an idempotency key makes a retry return the stored result),
 * `unsafe` (a retry may do the work twice).
 */
export type RetryClass = 'safe' | 'conditional' | 'unsafe';

/** Where a `$handle` appears in a tool schema. */
export interface HandleUseModel {
  readonly kind: string;
  /** JSON pointer inside the tool's input or output schema. */
  readonly pointer: string;
}

export interface HandleModel {
  readonly name: string;
  readonly description: string;
  readonly ttlMs: number;
  /** The id the contract tests mint handles of this kind for (`exampleId`). */
  readonly exampleId: string;
  /** Branded TypeScript type, e.g. `NoteDraftHandle`. */
  readonly typeName: string;
  /** Tools whose output issues this kind, sorted. */
  readonly issuedBy: readonly string[];
  /** Tools whose input consumes this kind, sorted. */
  readonly consumedBy: readonly string[];
  readonly pointer: string;
}

export interface ToolAnnotationsModel {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolModel {
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  readonly icons: readonly IconModel[];
  /** The hints exactly as declared; MCP defaults are not filled in on the wire. */
  readonly annotations: ToolAnnotationsModel;
  readonly readOnly: boolean;
  /** After MCP's defaults: destructive unless read-only or `destructiveHint: false`. */
  readonly destructive: boolean;
  readonly approval: 'confirm' | 'none';
  /** `key`: the wire input has a required `idempotencyKey` and the runtime keeps a ledger of results. */
  readonly idempotency: 'key' | 'none';
  readonly retry: RetryClass;
  readonly scopes: readonly string[];
  /** `tags` as declared, sorted; and the toolsets that hold the tool, sorted (none: listed in every selection). */
  readonly tags: readonly string[];
  readonly toolsets: readonly string[];
  /** How long a call may run before its signal aborts and it answers a timeout error. */
  readonly timeoutMs: number;
  /** Whether a call may (`optional`) or must (`required`) run as a durable task; `none`: never. */
  readonly task: 'none' | 'optional' | 'required';
  /** `input`: the first round runs in the call (it may ask for input); the round with the answers is the task. */
  readonly taskStart: 'call' | 'input';
  /** How long a task of this tool and its result are kept. */
  readonly taskTtlMs: number;
  readonly renamedFrom: string | null;
  /** Input schema as written (with `$handle`), keys sorted. */
  readonly input: JsonSchema;
  readonly output: JsonSchema | null;
  /** As sent on the wire: `$handle` lowered, each shared schema reached under `$defs` (its model's own object). */
  readonly wireInput: JsonSchema;
  readonly wireOutput: JsonSchema | null;
  readonly consumes: readonly HandleUseModel[];
  readonly issues: readonly HandleUseModel[];
  readonly names: ToolNames;
  readonly pointer: string;
  /** `http:`: the upstream request generated in place of a handler (a handler file overrides it), or null. */
  readonly http: HttpBindingModel | null;
}

/** A named group of tools a deployment selects (`<NAME>_TOOLSETS`) and a request narrows to. */
export interface ToolsetModel {
  readonly name: string;
  readonly description: string;
  /** Listed when a deployment chooses no toolsets (all are, when none is marked). */
  readonly default: boolean;
  /** Its tools, sorted. */
  readonly tools: readonly string[];
  readonly pointer: string;
}

/** Generated identifiers and paths of a tool; `file` is relative to the project root. */
export interface ToolNames {
  readonly handler: string;
  readonly inputType: string;
  readonly outputType: string;
  readonly file: string;
}

/** Where the server is published in the MCP registry (`server.json`); absent without a `registry` key. */
export interface RegistryModel {
  /** Reverse-DNS name, e.g. `io.github.owner/my-server`. */
  readonly name: string;
  /** npm package that runs the server over stdio, pinned to the server's version. */
  readonly npm: string | null;
  /** Streamable HTTP endpoint of a hosted deployment. */
  readonly remote: string | null;
  readonly repository: string | null;
}

/** The whole server, normalized. */
export interface ServerModel {
  readonly server: ServerInfoModel;
  readonly protocol: ProtocolModel;
  readonly cache: CacheModel;
  /** Items per page of every list (`pagination.pageSize`). */
  readonly pagination: { readonly pageSize: number };
  /**
   * The changes handlers announce (`notifications`): lists by name, sorted, and `notifications/resources/updated`.
   * The capabilities declare exactly these.
   */
  readonly notifications: NotificationsModel;
  readonly transports: TransportsModel;
  readonly auth: AuthModel;
  readonly secrets: SecretsModel;
  /** The manifest's `config` variables, sorted by name. */
  readonly config: readonly ConfigVarModel[];
  readonly store: StoreModel;
  /** `approvals`: where a person approves a call of an `approval: confirm` tool, and for how long it may. */
  readonly approvals: { readonly page: 'fallback' | 'always' | 'off'; readonly ttlMs: number };
  /** `telemetry.type`: `opentelemetry` ships telemetry.gen.ts and the `@opentelemetry/api` dependency. */
  readonly telemetry: { readonly type: 'none' | 'opentelemetry' };
  readonly handles: readonly HandleModel[];
  /** `schemas:`, sorted by name. */ readonly schemas: readonly SharedSchemaModel[];
  readonly tools: readonly ToolModel[];
  /** `toolsets:`, sorted by name, each with its tools. */
  readonly toolsets: readonly ToolsetModel[];
  /** `targets`, sorted: where the server runs; `workers` adds the Worker entry and its Durable Object. */
  readonly targets: readonly ('node' | 'workers')[];
  /** `discovery`: `search` lists `search_tools` and `call_tool` instead of the tools (model/search.ts). */
  readonly discovery: 'tools' | 'search';
  readonly resources: readonly ResourceModel[];
  readonly prompts: readonly PromptModel[];
  /** Settings of the design review. */
  readonly lint: { readonly maxTools: number };
  /** The context budget: the gate fails past `maxListTokens`, or on a limit of a host in `hosts` (host-limits.ts). */
  readonly review: { readonly maxListTokens: number; readonly hosts: readonly string[] };
  readonly registry: RegistryModel | null;
  /** The API that `http:` tools call, or null. */
  readonly upstream: UpstreamModel | null;
  /** The manifest's `examples`: tools, then resources, then prompts, each by name, then in declared order. */
  readonly examples: readonly ExampleModel[];
}

/** One shared schema: one type, and one object that each wire schema reaching it holds under `$defs`. */
export interface SharedSchemaModel {
  readonly name: string;
  readonly typeName: string;
  /** Canonical, `$ref: '#/schemas/<name>'` as written (`wire`: `#/$defs/<name>`); `refs`: the names it uses. */
  readonly schema: JsonSchema;
  readonly wire: JsonSchema;
  readonly refs: readonly string[];
}

/** One call the contract tests make, from a manifest `examples` entry, with what it must answer. */
export interface ExampleModel {
  readonly kind: 'tool' | 'resource' | 'prompt';
  readonly name: string;
  /** The call runs a tool that is not read-only (`readOnlyHint` not true): the contract tests run it only on opt-in. */
  readonly writes: boolean;
  /**
   * The request's params besides `_meta`: `{ name, arguments }`
   * for a tool or prompt, `{ uri }` for a resource; keys sorted.
   */
  readonly params: Readonly<Record<string, unknown>>;
  /** A tool's expected `structuredContent` (keys sorted), or null. */
  readonly output: unknown;
  /** The expected text of a resource's first content or a prompt's first message, or null. */
  readonly text: string | null;
  /**
   * Text the error must contain (an `isError` result for a tool, a JSON-RPC error otherwise), or null for a success.
   */
  readonly error: string | null;
}
