/**
 * The upstream request of one call of a bound tool: the URL with its path and query arguments, the headers and
 * cookies, and the body in the binding's media type (upstream-wire.gen.ts serializes each value); and the one way to
 * send a body with GET or HEAD, which fetch refuses. Shipped only with a bound tool.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { ToolError } from './handler.gen.js';
import { isJsonMedia } from './upstream-answer.gen.js';
import type { ArgumentSpec, FieldEncodingSpec, HttpBindingSpec } from './upstream-spec.gen.js';
import {
  cookiePairs,
  formBody,
  headerText,
  multipartBody,
  pathText,
  queryPairs,
  scalarText,
} from './upstream-wire.gen.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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

/** The scalars of a value, each checked as a path segment: an array's items, an object's keys and values. */
const scalars = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : isObject(value) ? Object.entries(value).flat() : [value];

/** A ToolError when any scalar of `value`, as text, holds a control character. */
function refuseControls(name: string, value: unknown): void {
  if (scalars(value).some((item) => controls.test(scalarText(item))))
    throw new ToolError(
      `The argument "${name}" contains a control character (CR, LF, NUL or another); nothing was sent.`,
    );
}

/** The expansion of a path argument; a ToolError when a value, or the whole expansion, is no single segment. */
function pathArgument(arg: ArgumentSpec, value: unknown): string {
  const expanded = pathText(arg, value);
  // Each value as given (an empty array item is allowed), then the expansion: a label `.` alone would be a dot segment.
  const texts = [
    ...scalars(value)
      .map(scalarText)
      .filter((t) => t !== ''),
    expanded,
  ];
  const problem = texts.map(segmentProblem).find((p) => p !== null);
  if (problem !== undefined && problem !== null)
    throw new ToolError(
      `The argument "${arg.name}" ${problem}: a path argument is one segment of the operation's path; ` +
        'nothing was sent.',
    );
  return expanded;
}

/** The bytes of the base64 text `value` of argument `name`; anything else is a tool error and nothing is sent. */
function base64Bytes(name: string, value: unknown): Uint8Array<ArrayBuffer> {
  let binary: string | undefined;
  try {
    // atob takes standard base64 only (padding optional, whitespace skipped), as contentEncoding: base64 says.
    binary = typeof value === 'string' ? atob(value) : undefined;
  } catch {
    binary = undefined;
  }
  if (binary === undefined) throw new ToolError(`The argument "${name}" is not base64 text; nothing was sent.`);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A multipart body's members with each file (`bytes`), or each item of an array of files, as its base64's bytes. */
function fileBytes(
  body: string,
  members: Record<string, unknown>,
  encoding: Readonly<Record<string, FieldEncodingSpec>>,
) {
  const out = { ...members };
  for (const [name, value] of Object.entries(members)) {
    if (encoding[name]?.bytes !== true || value === undefined) continue;
    const bytes = (item: unknown) => base64Bytes(`${body}.${name}`, item);
    out[name] = Array.isArray(value) ? value.map(bytes) : bytes(value);
  }
  return out;
}

/** The request of one call: URL with path and query arguments, headers, cookies and the body. */
export function buildRequest(binding: HttpBindingSpec, baseUrl: string, input: Record<string, unknown>) {
  let path = binding.path;
  const headers = new Headers({ accept: binding.accept ?? 'application/json' });
  const cookies: string[] = [];
  const query: string[] = [];
  const fields: Record<string, unknown> = {};
  let body: unknown;
  let bodyName = 'body';
  for (const arg of binding.args) {
    const { name, in: location } = arg;
    const given = input[name];
    if (given === undefined) continue;
    const value = arg.content === undefined ? given : JSON.stringify(given);
    const wire = arg.wire ?? name;
    if (location === 'path') path = path.split(`{${wire}}`).join(pathArgument(arg, value));
    else if (location === 'query') {
      refuseControls(name, value);
      query.push(...queryPairs(wire, value, arg));
    } else if (location === 'header') {
      refuseControls(name, value);
      const header = headerText(arg, value);
      // A header carries Latin-1 only; Headers would throw with the value in its message.
      if (/[^\0-\xff]/.test(header))
        throw new ToolError(`The argument "${name}" has a character a header cannot carry; nothing was sent.`);
      headers.set(wire, header);
    } else if (location === 'cookie') cookies.push(...cookiePairs(arg, value));
    else if (location === 'body') {
      body = value;
      bodyName = name;
    } else fields[wire] = value;
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
  // Appended as text, so each style's delimiters (`,`, `|`, `[`, `]`) reach the wire as the specification writes them.
  if (query.length > 0) url.search = `${url.search === '' ? '' : `${url.search.slice(1)}&`}${query.join('&')}`;
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  let encoded: string | Uint8Array<ArrayBuffer> | undefined;
  const encoding = binding.encoding ?? {};
  const members = isObject(body) ? body : { value: body };
  if (body === undefined) encoded = undefined;
  else if (binding.body === 'application/x-www-form-urlencoded') encoded = formBody(members, encoding);
  else if (binding.body === 'multipart/form-data') {
    const boundary = `mcp-gen-${randomUUID()}`;
    encoded = multipartBody(fileBytes(bodyName, members, encoding), encoding, boundary);
    headers.set('content-type', `multipart/form-data; boundary=${boundary}`);
  } else if (binding.bytes === true) encoded = base64Bytes(bodyName, body);
  else encoded = isJsonMedia(binding.body) ? JSON.stringify(body) : scalarText(body);
  if (body !== undefined && binding.body !== 'multipart/form-data') headers.set('content-type', binding.body);
  return { url, headers, body: encoded };
}

/** Final statuses whose answer has no body (a Response refuses one). */
const nullBodyStatuses = [204, 205, 304];

/**
 * A request with a body on GET or HEAD, which OpenAPI 3.1 allows where the operation defines one and fetch refuses:
 * sent with node:http(s), answered as a Response so the caller reads it as any other.
 */
export function sendWithBody(
  url: URL,
  method: string,
  headers: Headers,
  body: string | Uint8Array<ArrayBuffer>,
  signal: AbortSignal,
): Promise<Response> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = Object.fromEntries(headers);
    outgoing['content-length'] = String(Buffer.byteLength(body));
    const request = send(url, { method, headers: outgoing, signal }, (response) => {
      // This runs outside the promise's executor: anything it throws must become the rejection, or it would end the
      // process (a Response refuses a status outside 200-599, a header value it cannot hold).
      try {
        const status = response.statusCode ?? 502;
        if (status > 599) throw new ToolError(`The upstream API failed (HTTP ${status}); retry later.`, 'failed', true);
        // An interim status as the answer (101 without an upgrade asked for): no answer was given.
        if (status < 200) throw new Error(`interim status ${status}`);
        const answer = new Headers();
        for (const [k, v] of Object.entries(response.headers))
          if (v !== undefined) answer.set(k, Array.isArray(v) ? v.join(', ') : v);
        const empty = nullBodyStatuses.includes(status);
        const stream = empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, headers: answer }));
        if (empty) response.resume();
      } catch (error) {
        response.destroy();
        reject(error);
      }
    });
    request.on('error', reject);
    request.end(body);
  });
}
