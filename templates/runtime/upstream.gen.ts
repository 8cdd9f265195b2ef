/**
 * HTTP bindings: the handler of a tool declared with `http:` is one upstream request (shipped only by servers that
 * declare one). The request carries the tool's `ctx.signal` (its deadline and the client's cancel), the credential
 * from the configuration start-up read and checked (no request leaves without it), and the arguments where the
 * binding puts them; with telemetry it is a client span `upstream <METHOD> <path template>`. The answer is untrusted
 * data: read up to a size cap, parsed as JSON and never interpreted; 4xx is a tool error with the upstream status and
 * message, 5xx and network failures a retryable one (`_meta['mcp-gen/error'].retryable`, register.gen.ts).
 */
import { ToolError } from './handler.gen.js';
import { redact, type Telemetry } from './start.gen.js';
import type { HttpBindingSpec, UpstreamSpec } from './upstream-spec.gen.js';

export type { HttpBindingSpec, UpstreamSpec } from './upstream-spec.gen.js';

/** The most of an upstream answer that is read; a longer one is a tool error, not a partial result. */
export const maxUpstreamBytes = 4 * 1024 * 1024;
/** How much of an upstream error message reaches the caller. */
const maxMessageChars = 300;

/** What start-up hands this module: the values readConfig returned (typed, defaults applied) and telemetry. */
interface Started {
  readonly config: Readonly<Record<string, unknown>>;
  readonly telemetry: Telemetry | null;
}
let started: Started | null = null;

/** Called once at start-up (RuntimeModules.upstream), after the configuration was read and checked. */
export function startUpstream(config: Readonly<Record<string, unknown>>, telemetry: Telemetry | null): void {
  started = { config, telemetry };
}

/** What start-up gave; bound tools only run in a started server. */
function environment(): Started {
  if (started === null) throw new Error('upstream bindings are called before startUpstream ran');
  return started;
}

/** A config variable's value as start-up read it; undefined when unset. */
function readVariable(config: Started['config'], name: string): string | undefined {
  const value = config[name];
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/**
 * A ToolError when `response` is a redirect: every upstream request is sent with `redirect: 'manual'`, so neither the
 * credential nor the arguments follow a `Location` to another URL.
 */
async function refuseRedirect(response: Response, what: string): Promise<void> {
  if (![301, 302, 303, 307, 308].includes(response.status)) return;
  await response.body?.cancel();
  throw new ToolError(`${what} with a redirect (HTTP ${response.status}), which is refused; it was not followed.`);
}

/** The OAuth 2 client-credentials tokens, by token URL and client, each kept until shortly before it expires. */
const tokens = new Map<string, { readonly token: string; readonly until: number }>();

async function clientCredentialsToken(
  url: string,
  id: string,
  secret: string,
  scopes: readonly string[],
  signal: AbortSignal,
) {
  const key = `${url}\n${id}`;
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
  const answer = parseJson(await readCapped(response));
  const token = isObject(answer) && typeof answer.access_token === 'string' ? answer.access_token : null;
  if (!response.ok || token === null)
    throw new ToolError(`The upstream token endpoint refused the client credentials (HTTP ${response.status}).`);
  const lifetime = isObject(answer) && typeof answer.expires_in === 'number' ? answer.expires_in : 300;
  // A minute early, so that a token never expires on its way to the API.
  tokens.set(key, { token, until: Date.now() + Math.max(0, lifetime - 60) * 1000 });
  return token;
}

/** Attaches the credential to `headers` or `url`; a ToolError naming the unset variables when any is missing. */
async function sign(
  spec: UpstreamSpec,
  config: Started['config'],
  url: URL,
  headers: Headers,
  signal: AbortSignal,
): Promise<void> {
  const c = spec.credential;
  if (c.type === 'none') return;
  const names =
    c.type === 'bearer'
      ? [c.token]
      : c.type === 'apiKey'
        ? [c.value]
        : c.type === 'basic'
          ? [c.username, c.password]
          : [c.tokenUrl, c.clientId, c.clientSecret];
  const values = names.map((name) => readVariable(config, name));
  const missing = names.filter((_, i) => values[i] === undefined);
  // Fail closed: without its credential no request leaves the server.
  if (missing.length > 0)
    throw new ToolError(`The upstream credential is not configured: set ${missing.join(', ')} in the environment.`);
  const [first = '', second = '', third = ''] = values as string[];
  if (c.type === 'bearer') headers.set('authorization', `Bearer ${first}`);
  else if (c.type === 'apiKey' && c.in === 'header') headers.set(c.name, first);
  else if (c.type === 'apiKey') url.searchParams.set(c.name, first);
  else if (c.type === 'basic')
    headers.set('authorization', `Basic ${Buffer.from(`${first}:${second}`).toString('base64')}`);
  else if (c.type === 'oauth2')
    headers.set('authorization', `Bearer ${await clientCredentialsToken(first, second, third, c.scopes, signal)}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A scalar as the text of a path segment, query value or header; objects and arrays as JSON. */
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The body, read up to the cap; a longer one is refused (ToolError) rather than cut. */
async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxUpstreamBytes) {
      await reader.cancel();
      throw new ToolError(`The upstream answer is larger than ${maxUpstreamBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(body: string): unknown {
  if (body.trim() === '') return null;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The message of an error answer at `pointer` (or the usual fields), redacted, cut short and quoted as data. */
function errorMessage(answer: unknown, pointer: string | null): string | null {
  let found: unknown;
  if (pointer !== null) {
    found = answer;
    for (const token of pointer.split('/').slice(1)) {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      found = isObject(found) || Array.isArray(found) ? (found as Record<string, unknown>)[key] : undefined;
    }
  } else if (isObject(answer)) found = answer.message ?? answer.error ?? answer.detail;
  if (found === undefined || found === null) return null;
  // An API may echo the credential it refused: secrets and URL credentials are hidden before the caller sees it.
  return JSON.stringify(redact(text(found)).slice(0, maxMessageChars));
}

/** C0 controls and DEL: CR/LF would split a header or a log line, NUL cuts a value short on many servers. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const controls = /[\0-\x1f\x7f]/;

/** `value` with every `%XX` decoded, byte for byte, as a lenient server would (invalid escapes stay). */
const decodeOnce = (value: string): string =>
  value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * Why `value` is not one path segment, or null when it is. It is checked as sent and after each of up to four decodings
 * (a router may decode again, `%252e` is `.` twice over): no control character, and no piece between `/` or `\` (a
 * `;parameter` cut off, as Tomcat does) that is `.` or `..`; and not empty.
 */
function segmentProblem(value: string): string | null {
  if (value === '') return 'is empty';
  let current = value;
  for (let round = 0; round < 5; round++) {
    if (controls.test(current)) return 'contains a control character';
    const pieces = current.split(/[/\\]/).map((piece) => piece.split(';')[0]);
    if (pieces.some((piece) => piece === '.' || piece === '..')) return 'is "." or ".." (in some encoding)';
    const next = decodeOnce(current);
    if (next === current) return null;
    current = next;
  }
  return 'is encoded more than four times over';
}

/** The text of a header, query or path argument; a ToolError when it holds a control character. */
function argumentText(name: string, value: unknown): string {
  const result = text(value);
  if (controls.test(result))
    throw new ToolError(
      `The argument "${name}" contains a control character (CR, LF, NUL or another); nothing was sent.`,
    );
  return result;
}

/** The request of one call: URL with path and query arguments, headers, cookies and the body. */
function buildRequest(binding: HttpBindingSpec, baseUrl: string, input: Record<string, unknown>) {
  let path = binding.path;
  const headers = new Headers({ accept: 'application/json' });
  const cookies: string[] = [];
  const query: [string, string][] = [];
  const fields: Record<string, unknown> = {};
  let body: unknown;
  for (const { name, in: location } of binding.args) {
    const value = input[name];
    if (value === undefined) continue;
    if (location === 'path') {
      const segment = text(value);
      const problem = segmentProblem(segment);
      if (problem !== null)
        throw new ToolError(
          `The argument "${name}" ${problem}: a path argument is one segment of the operation's path; ` +
            'nothing was sent.',
        );
      path = path.split(`{${name}}`).join(encodeURIComponent(segment));
    } else if (location === 'query')
      for (const item of Array.isArray(value) ? value : [value]) query.push([name, argumentText(name, item)]);
    else if (location === 'header') {
      const header = argumentText(name, value);
      // A header carries Latin-1 only; Headers would throw with the value in its message.
      if (/[^\0-\xff]/.test(header))
        throw new ToolError(`The argument "${name}" has a character a header cannot carry; nothing was sent.`);
      headers.set(name, header);
    } else if (location === 'cookie') cookies.push(`${name}=${encodeURIComponent(text(value))}`);
    else if (location === 'body') body = value;
    else fields[name] = value;
  }
  if (Object.keys(fields).length > 0) body = isObject(body) ? { ...body, ...fields } : fields;
  const base = baseUrl.replace(/\/+$/, '');
  const url = new URL(base + path);
  // Defence in depth behind segmentProblem: the URL stays on the upstream's origin and under the operation's literal
  // prefix (its path up to the first argument), both as the URL parser normalized them.
  const brace = binding.path.indexOf('{');
  const prefix = new URL(base + (brace < 0 ? binding.path : binding.path.slice(0, brace)));
  if (url.origin !== prefix.origin || !url.pathname.startsWith(prefix.pathname))
    throw new ToolError(
      `The request left the operation's path (${binding.method} ${binding.path}) and was refused; nothing was sent.`,
    );
  for (const [name, value] of query) url.searchParams.append(name, value);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  let encoded: string | FormData | undefined;
  if (body !== undefined && binding.body === 'application/json') encoded = JSON.stringify(body);
  else if (body !== undefined) {
    const entries = Object.entries(isObject(body) ? body : { value: body }).map(([k, v]): [string, string] => [
      k,
      text(v),
    ]);
    if (binding.body === 'multipart/form-data') {
      encoded = new FormData();
      for (const [k, v] of entries) encoded.append(k, v);
    } else encoded = new URLSearchParams(entries).toString();
  }
  // FormData's content type carries its boundary, which fetch writes.
  if (body !== undefined && binding.body !== 'multipart/form-data') headers.set('content-type', binding.body);
  return { url, headers, body: encoded };
}

/**
 * The handler of a bound tool. Its result is the parsed JSON answer (or `{ result }` with `result: wrap`), which the
 * runtime validates against the tool's output schema like any handler's result before it sends structured content.
 */
export function bindTool<H>(spec: UpstreamSpec, binding: HttpBindingSpec): H {
  const handler = async (input: Record<string, unknown>, ctx: { readonly signal: AbortSignal }): Promise<unknown> => {
    const { config, telemetry } = environment();
    const baseUrl = readVariable(config, spec.baseUrl);
    if (baseUrl === undefined || !URL.canParse(baseUrl))
      throw new ToolError(`The upstream base URL is not configured: set ${spec.baseUrl} to the API's URL.`);
    const request = buildRequest(binding, baseUrl, input);
    await sign(spec, config, request.url, request.headers, ctx.signal);
    const exchange = async () => {
      try {
        const response = await fetch(request.url, {
          method: binding.method,
          headers: request.headers,
          body: request.body ?? null,
          signal: ctx.signal,
          redirect: 'manual',
        });
        await refuseRedirect(response, `The upstream API answered ${binding.method} ${binding.path}`);
        return { status: response.status, body: await readCapped(response) };
      } catch (error) {
        if (error instanceof ToolError || ctx.signal.aborted) throw error;
        throw new ToolError(
          `The upstream API could not be reached (${binding.method} ${binding.path}); retry later.`,
          'failed',
          true,
        );
      }
    };
    const attributes = { 'http.request.method': binding.method, 'url.template': binding.path };
    const { status, body } = await (telemetry === null
      ? exchange()
      : telemetry.withSpan(`upstream ${binding.method} ${binding.path}`, attributes, exchange, 'client'));
    const answer = parseJson(body);
    if (status >= 500) throw new ToolError(`The upstream API failed (HTTP ${status}); retry later.`, 'failed', true);
    if (status >= 400) {
      const message = errorMessage(answer, binding.errorMessage);
      throw new ToolError(
        `The upstream API refused the call (HTTP ${status})${message === null ? '.' : `: ${message}`}`,
        status === 404 ? 'not_found' : status === 409 ? 'conflict' : 'invalid',
      );
    }
    if (answer === undefined) throw new ToolError(`The upstream answer (HTTP ${status}) is not JSON.`);
    const result = binding.result === 'wrap' ? { result: answer } : (answer ?? {});
    return binding.structured ? result : JSON.stringify(result);
  };
  return handler as unknown as H;
}
