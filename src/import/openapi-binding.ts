/**
 * The HTTP bindings of an imported OpenAPI document: `upstream:` from `servers[0]` and the security scheme most
 * operations use, each value in a `config` variable, and per operation the `http:` that keeps the method, the
 * path and where each argument goes, so the generated server calls the API with no handler written.
 */
import { envPrefix } from '../model/naming.js';
import { isRecord } from '../util/guards.js';
import type { DraftNote } from './draft.js';
import { quote } from './names.js';
import type { ArgumentEntry, RequestMedia } from './openapi-request.js';
import { SecurityDraft } from './openapi-security.js';
import { firstServer, madeFrom, OperationServers } from './openapi-servers.js';

type Raw = Readonly<Record<string, unknown>>;

/** `config:` and `upstream:` of the draft, with the notes a reviewer needs. */
export interface UpstreamDraft {
  readonly config: Record<string, unknown>;
  readonly upstream: Record<string, unknown>;
  readonly notes: readonly DraftNote[];
  /** Each operation's `http.security` and its credential-carrying parameters. */
  readonly security: SecurityDraft;
  /** The base URL variables of operations served elsewhere. */
  readonly servers: OperationServers;
  /** What to tell at import: each declared scheme mcp-gen cannot send. */
  readonly warnings: readonly string[];
}

/** The security scheme names operations require, most used first (declared order breaks ties). */
function schemesByUse(api: Raw, declared: readonly string[]): string[] {
  const uses = new Map(declared.map((name) => [name, 0]));
  const count = (security: unknown) => {
    for (const requirement of Array.isArray(security) ? security : [])
      if (isRecord(requirement))
        for (const name of Object.keys(requirement)) if (uses.has(name)) uses.set(name, (uses.get(name) ?? 0) + 1);
  };
  const paths = isRecord(api.paths) ? api.paths : {};
  for (const item of Object.values(paths))
    for (const operation of isRecord(item) ? Object.values(item) : [])
      if (isRecord(operation)) count(operation.security ?? api.security);
  return [...declared].sort(
    (a, b) => (uses.get(b) ?? 0) - (uses.get(a) ?? 0) || declared.indexOf(a) - declared.indexOf(b),
  );
}

/** `upstream:` for `api`, its variables prefixed with the server's `prefix`. */
export function upstreamDraft(api: Raw, serverName: string): UpstreamDraft {
  const prefix = envPrefix(serverName);
  const notes: DraftNote[] = [];
  const config: Record<string, unknown> = {};
  const baseUrl = `${prefix}_BASE_URL`;
  const main = firstServer(api.servers);
  const absolute = main?.absolute === true;
  config[baseUrl] = {
    description: `The base URL of the API the tools call${madeFrom(main)}.`,
    type: 'url',
    ...(absolute ? { default: main.url } : { required: false }),
  };
  if (!absolute)
    notes.push({
      path: ['config', baseUrl],
      text:
        `TODO upstream: the spec's first server ${quote(main?.url ?? '(none)')} is not an absolute URL; ` +
        'set a default',
    });
  const upstream: Record<string, unknown> = { baseUrl };
  const components = isRecord(api.components) ? api.components : {};
  const schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  const probe = new SecurityDraft(api, prefix, {}, {}, null);
  const scheme = schemesByUse(api, Object.keys(schemes)).find((name) => probe.credential(name) !== null) ?? null;
  for (const name of Object.keys(schemes)) probe.credential(name);
  const warnings = [...probe.refused()].map(([name, why]) => `security scheme ${quote(name)} is not sent: ${why}`);
  for (const warning of warnings)
    notes.push({ path: ['upstream'], text: `TODO upstream: the spec's ${warning}; write a handler if it is needed` });
  const security = new SecurityDraft(api, prefix, config, upstream, scheme);
  const credential = scheme === null ? null : security.credential(scheme);
  if (scheme !== null && credential !== null) {
    upstream.credential = credential;
    notes.push({
      path: ['upstream'],
      text:
        `The credential is the spec's security scheme ${quote(scheme)}, the one most operations use; ` +
        'it is sent with every request whose tool names no http.security, and a call without it fails before any ' +
        'request leaves. Tools with http.security send the credentials their operation requires (none when public).',
    });
  }
  const servers = new OperationServers(prefix, config, main);
  return { config, upstream, notes, security, warnings, servers };
}

/** What the draft keeps of one operation's request: every argument's location and the body's media type. */
export interface RequestShape {
  readonly method: string;
  readonly route: string;
  /** Input property -> `path`, `query`, `header`, `cookie` or `body`, or that with how it is serialized. */
  readonly args: ReadonlyMap<string, ArgumentEntry>;
  readonly media: RequestMedia | null;
  /** The 2xx answer is not an object, so the output is `{ result }`. */
  readonly wrapped: boolean;
  /** `http.accept`: the 2xx answer's media ranges when it offers no JSON; null: JSON. */
  readonly accept: string | null;
  /** `http.security`; undefined: the main credential. */
  readonly security?: string[][] | undefined;
}

/**
 * The tool's `http:`, with a TODO when the body's media type is one a binding cannot send, or a note naming the
 * other media types the operation offers (`http.body` chooses).
 */
export function httpBinding(shape: RequestShape): { http: Record<string, unknown>; todo: string | null } {
  const args = Object.fromEntries([...shape.args].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const http: Record<string, unknown> = { method: shape.method.toUpperCase(), path: shape.route };
  if (Object.keys(args).length > 0) http.args = args;
  const media = shape.media;
  if (media?.sendable && media.type !== 'application/json') http.body = media.type;
  if (media !== null && Object.keys(media.encoding).length > 0) http.encoding = media.encoding;
  if (shape.accept !== null) http.accept = shape.accept;
  if (shape.wrapped) http.result = 'wrap';
  if (shape.security !== undefined) http.security = shape.security;
  if (media !== null && !media.sendable)
    return {
      http,
      todo:
        `TODO http: the spec's body is ${quote(media.type)}; the binding sends ` +
        'JSON (write a handler if the API needs another encoding)',
    };
  const others = media?.others ?? [];
  return {
    http,
    todo:
      others.length === 0
        ? null
        : `The spec also accepts the body as ${others.map(quote).join(', ')}; set http.body to send another ` +
          '(with the body its schema describes)',
  };
}
