/**
 * The URLs an imported OpenAPI document serves its operations at: a Server Object's URL with each `{variable}` its
 * default, and, for an operation or path item with `servers` of its own, a `config` variable of that URL which the
 * tool's `http.baseUrl` names, so the request goes where the document says and not to `upstream.baseUrl`.
 */
import { isRecord, stringOr } from '../util/guards.js';
import { quote } from './names.js';

type Raw = Readonly<Record<string, unknown>>;

/** A Server Object's URL, each `{variable}` replaced by its default; the variables replaced, in order. */
export interface ServerUrl {
  readonly url: string;
  /** The URL as the document writes it. */
  readonly written: string;
  /** `name=default` of each variable replaced. */
  readonly replaced: readonly string[];
  readonly absolute: boolean;
}

/** The URL of `server` (a Server Object), or undefined when it has none. */
export function serverUrl(server: unknown): ServerUrl | undefined {
  if (!isRecord(server)) return undefined;
  const written = stringOr(server.url);
  if (written === undefined) return undefined;
  const variables = isRecord(server.variables) ? server.variables : {};
  const replaced: string[] = [];
  // A variable the server does not declare, or declares without a default, is left as written: the URL is then
  // not one a request can go to, and the draft says so.
  const url = written.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const variable = Object.hasOwn(variables, name) ? variables[name] : undefined;
    const value = isRecord(variable) ? stringOr(variable.default) : undefined;
    if (value === undefined) return whole;
    replaced.push(`${name}=${value}`);
    return value;
  });
  return { url, written, replaced, absolute: URL.canParse(url) && !/\{[^{}]*\}/.test(url) };
}

/** How `server`'s URL was made, for a description: empty, or the written URL and the defaults it took. */
export function madeFrom(server: ServerUrl | undefined): string {
  if (server === undefined || server.replaced.length === 0) return '';
  return ` (the spec's ${quote(server.written)} with ${server.replaced.join(', ')})`;
}

/** The first server of `servers` (an array of Server Objects), or undefined for none or an empty array. */
export function firstServer(servers: unknown): ServerUrl | undefined {
  return Array.isArray(servers) ? serverUrl(servers[0]) : undefined;
}

/**
 * A config variable's name part from a URL: the host's first label and the path, upper case, at most 40 characters
 * (a variable's name is at most 128, and the server's name comes first).
 */
function partOf(url: string): string {
  const at = URL.canParse(url) ? new URL(url) : null;
  const text = at === null ? url : `${at.hostname.split('.')[0] ?? ''}/${at.pathname}`;
  const words = text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => w !== '');
  let part = '';
  for (const word of words) {
    const longer = part === '' ? word.slice(0, 40) : `${part}_${word}`;
    if (longer.length > 40) break;
    part = longer;
  }
  return part || 'SERVER';
}

/** `url` without trailing slashes: the runtime joins base URL and path without them, so `https://a/` is `https://a`. */
const trimmed = (url: string) => url.replace(/\/+$/, '');
const sameUrl = (a: string, b: string | undefined) => b !== undefined && trimmed(a) === trimmed(b);

/** The base URL variables of the operations served elsewhere than the document's first server. */
export class OperationServers {
  readonly #byUrl = new Map<string, string>();

  constructor(
    private readonly prefix: string,
    private readonly config: Record<string, unknown>,
    /** The document's first server, which `upstream.baseUrl` holds. */
    private readonly main: ServerUrl | undefined,
  ) {}

  /**
   * The variable of the URL that `operation` of path item `item` is sent to, with a note (and a TODO when it has
   * no default); undefined when that is the document's first server. An operation's `servers` override its path
   * item's (an empty list overrides nothing).
   */
  of(item: Raw, operation: Raw): { variable: string; notes: string[] } | undefined {
    const own = firstServer(operation.servers) ?? firstServer(item.servers);
    if (own === undefined || sameUrl(own.url, this.main?.url)) return undefined;
    const variable = this.#byUrl.get(trimmed(own.url)) ?? this.#declare(own);
    const notes = [
      `The spec serves this operation at ${quote(own.url)}, not the API's base URL: http.baseUrl names it`,
    ];
    if (!own.absolute)
      notes.push(`TODO upstream: the operation's server ${quote(own.url)} is not an absolute URL; set ${variable}`);
    return { variable, notes };
  }

  #declare(server: ServerUrl): string {
    const stem = `${this.prefix}_${partOf(server.url)}_BASE_URL`;
    let variable = stem;
    for (let n = 2; variable in this.config; n += 1) variable = `${stem}_${n}`;
    this.config[variable] = {
      description: `The base URL of the operations the API serves at ${quote(server.url)}${madeFrom(server)}.`,
      type: 'url',
      ...(server.absolute ? { default: server.url } : { required: false }),
    };
    this.#byUrl.set(trimmed(server.url), variable);
    return variable;
  }
}

/** A tool's `http` with `baseUrl` after its method and path, where a reader looks for where the request goes. */
export function withBaseUrl(http: Raw, variable: string): Record<string, unknown> {
  const { method, path, ...rest } = http;
  return { method, path, baseUrl: variable, ...rest };
}
