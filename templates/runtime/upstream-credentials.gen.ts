/**
 * The credentials of bound tools' requests: which of an operation's security alternatives a request carries, how each
 * credential is attached (header, query, cookie, Basic, an OAuth 2 client-credentials token fetched and kept), and the
 * forms each secret goes out in, hidden from logs and error messages.
 */
import { ToolError } from './handler.gen.js';
import { hideSent } from './log.gen.js';
import { isObject, parseJson, readCapped, refuseRedirect } from './upstream-answer.gen.js';
import type { HttpBindingSpec, UpstreamCredentialSpec, UpstreamSpec } from './upstream-spec.gen.js';
import { percentEncode } from './upstream-wire.gen.js';

/** The configuration start-up read: each variable's value, typed, defaults applied. */
export type Config = Readonly<Record<string, unknown>>;

/** A config variable's value as start-up read it; undefined when unset. */
export function readVariable(config: Config, name: string): string | undefined {
  const value = config[name];
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/**
 * The OAuth 2 client-credentials tokens, by token URL, client, secret and scopes (a token for other scopes grants
 * something else), each kept until shortly before it expires or the API refuses it.
 */
const tokens = new Map<string, { readonly token: string; readonly until: number }>();

const tokenKey = (url: string, id: string, secret: string, scopes: readonly string[]): string =>
  JSON.stringify([url, id, secret, [...scopes].sort()]);

async function clientCredentialsToken(
  url: string,
  id: string,
  secret: string,
  scopes: readonly string[],
  signal: AbortSignal,
) {
  const key = tokenKey(url, id, secret, scopes);
  const cached = tokens.get(key);
  if (cached !== undefined && cached.until > Date.now()) return cached.token;
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scopes.length > 0) form.set('scope', scopes.join(' '));
  // RFC 6749 2.3.1: the client id and secret are form-encoded before they are joined for Basic authentication.
  const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: form.toString(),
    signal,
    redirect: 'manual',
  });
  await refuseRedirect(response, 'The upstream token endpoint answered');
  const answer = parseJson((await readCapped(response)).toString('utf8'));
  const token = isObject(answer) && typeof answer.access_token === 'string' ? answer.access_token : null;
  if (!response.ok || token === null)
    throw new ToolError(`The upstream token endpoint refused the client credentials (HTTP ${response.status}).`);
  const lifetime = isObject(answer) && typeof answer.expires_in === 'number' ? answer.expires_in : 300;
  // A minute early, so that a token never expires on its way to the API.
  tokens.set(key, { token, until: Date.now() + Math.max(0, lifetime - 60) * 1000 });
  return token;
}

/** The config variables `c` needs; a basic password may be unset (an empty password). */
function needed(c: UpstreamCredentialSpec): string[] {
  if (c.type === 'none') return [];
  if (c.type === 'bearer') return [c.token];
  if (c.type === 'apiKey') return [c.value];
  if (c.type === 'basic') return [c.username];
  return [c.tokenUrl, c.clientId, c.clientSecret];
}

/**
 * The credentials a request carries: the binding's first `security` alternative whose variables are all set (each
 * credential of it sent), none for a public one (`[]`), else `upstream.credential`. A ToolError naming the unset
 * variables of the first alternative when none is complete: no request leaves without its credential.
 */
export function chosen(spec: UpstreamSpec, binding: HttpBindingSpec, config: Config): UpstreamCredentialSpec[] {
  const alternatives = binding.security?.map((names) =>
    names.map((name) => spec.credentials?.[name] ?? { type: 'none' as const }),
  ) ?? [[spec.credential]];
  if (alternatives.length === 0) return [];
  const unset = alternatives.map((all) => all.flatMap(needed).filter((v) => readVariable(config, v) === undefined));
  const index = unset.findIndex((missing) => missing.length === 0);
  if (index < 0)
    throw new ToolError(`The upstream credential is not configured: set ${unset[0]?.join(', ')} in the environment.`);
  return alternatives[index] ?? [];
}

/** Whether the query pair `pair` (`name=value`, encoded) is named `name`. */
function named(pair: string, name: string): boolean {
  const raw = pair.split('=')[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')) === name;
  } catch {
    return raw === name;
  }
}

/**
 * Attaches each credential to `headers` or `url`; `chosen` checked that their variables are set. A credential replaces
 * a query parameter or cookie of its name that an argument set: the request goes out as the configured identity only.
 * Each form a secret is sent in is hidden from logs and error messages, whether or not its variable says `secret`.
 */
export async function sign(
  credentials: readonly UpstreamCredentialSpec[],
  config: Config,
  url: URL,
  headers: Headers,
  signal: AbortSignal,
): Promise<void> {
  const read = (name: string) => readVariable(config, name) ?? '';
  const sent: string[] = [];
  for (const c of credentials) {
    if (c.type === 'bearer') {
      headers.set('authorization', `Bearer ${read(c.token)}`);
      sent.push(read(c.token));
    } else if (c.type === 'apiKey' && c.in === 'header') {
      headers.set(c.name, read(c.value));
      sent.push(read(c.value));
    } else if (c.type === 'apiKey') {
      const value = percentEncode(read(c.value));
      sent.push(read(c.value), value);
      // Joined as text: searchParams would re-encode the whole query and undo each parameter style's delimiters.
      if (c.in === 'cookie') {
        const others = (headers.get('cookie') ?? '').split('; ').filter((p) => p !== '' && !named(p, c.name));
        headers.set('cookie', [...others, `${percentEncode(c.name)}=${value}`].join('; '));
      } else {
        const others = url.search
          .slice(1)
          .split('&')
          .filter((p) => p !== '' && !named(p, c.name));
        url.search = [...others, `${percentEncode(c.name)}=${value}`].join('&');
      }
    } else if (c.type === 'basic') {
      const pair = `${read(c.username)}:${read(c.password)}`;
      const payload = Buffer.from(pair).toString('base64');
      headers.set('authorization', `Basic ${payload}`);
      sent.push(read(c.password), pair, payload);
    } else if (c.type === 'oauth2') {
      const secret = read(c.clientSecret);
      const token = await clientCredentialsToken(read(c.tokenUrl), read(c.clientId), secret, c.scopes, signal);
      headers.set('authorization', `Bearer ${token}`);
      sent.push(secret, token);
    }
  }
  hideSent(sent);
}

/** After a 401: the OAuth 2 tokens of `credentials` are fetched again on the next call, in case one was revoked. */
export function forgetTokens(credentials: readonly UpstreamCredentialSpec[], config: Config): void {
  const read = (name: string) => readVariable(config, name) ?? '';
  for (const c of credentials)
    if (c.type === 'oauth2')
      tokens.delete(tokenKey(read(c.tokenUrl), read(c.clientId), read(c.clientSecret), c.scopes));
}
