/**
 * An upstream answer as bound tools read it: never followed when it redirects, read up to a size cap, read as JSON,
 * text or bytes by its Content-Type, and its error message (where the binding points, or in the usual fields)
 * redacted and cut short.
 */
import type { ContentBlock } from '@modelcontextprotocol/server';
import { ToolError } from './handler.gen.js';
import { redact } from './log.gen.js';

/** The most of an upstream answer that is read; a longer one is a tool error, not a partial result. */
export const maxUpstreamBytes = 4 * 1024 * 1024;
/** How much of an upstream error message reaches the caller. */
const maxMessageChars = 300;

/**
 * A ToolError when `response` is a redirect: every upstream request is sent with `redirect: 'manual'`, so neither the
 * credential nor the arguments follow a `Location` to another URL.
 */
export async function refuseRedirect(response: Response, what: string): Promise<void> {
  if (![301, 302, 303, 307, 308].includes(response.status)) return;
  await response.body?.cancel();
  throw new ToolError(`${what} with a redirect (HTTP ${response.status}), which is refused; it was not followed.`);
}

/**
 * A ToolError when the answer is one to try again later, both retryable: 5xx, or a refusal for the rate of calls
 * (429, or a 403 as GitHub sends for its limits: with `x-ratelimit-remaining: 0`, or with `Retry-After`). Its text says
 * when, where the answer does: `Retry-After` (seconds or an HTTP date), else `x-ratelimit-reset` (epoch seconds) of a
 * spent limit.
 */
export function refuseBusy(status: number, headers: Headers, now = Date.now()): void {
  const spent = headers.get('x-ratelimit-remaining') === '0';
  const after = headers.get('retry-after')?.trim() ?? '';
  if (status < 500 && status !== 429 && !(status === 403 && (spent || after !== ''))) return;
  const reset = spent ? Number(headers.get('x-ratelimit-reset')) * 1000 : Number.NaN;
  const at = /^\d+$/.test(after) ? now + Number(after) * 1000 : after !== '' ? Date.parse(after) : reset;
  const when = Number.isFinite(at) && at > now ? `in ${Math.ceil((at - now) / 1000)} s` : 'later';
  throw new ToolError(
    status >= 500
      ? `The upstream API failed (HTTP ${status}); retry ${when}.`
      : `The upstream API limits the rate of calls and refused this one (HTTP ${status}); retry ${when}.`,
    'failed',
    true,
  );
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A message as text; anything else as JSON. */
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The body, read up to the cap; a longer one is refused (ToolError) rather than cut. */
export async function readCapped(response: Response): Promise<Buffer> {
  const reader = response.body?.getReader();
  if (reader === undefined) return Buffer.alloc(0);
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
  return Buffer.concat(chunks);
}

/** The body as JSON: null when empty, undefined when it is not JSON. */
export function parseJson(body: string): unknown {
  if (body.trim() === '') return null;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * An answer as its Content-Type says: JSON (`value` undefined when it does not parse, null when empty), text, or
 * bytes. An answer without a type is JSON when it parses, else text.
 */
export type Answer =
  | { readonly kind: 'json'; readonly type: string; readonly value: unknown }
  | { readonly kind: 'text'; readonly type: string; readonly text: string }
  | { readonly kind: 'bytes'; readonly type: string; readonly bytes: Buffer };

/** A JSON type (`application/json`, every `+json` type), parameters aside: a body sent, or an answer read, as JSON. */
export const isJsonMedia = (media: string): boolean => /^[a-z]+\/([^\s;/]+\+)?json *(;.*)?$/i.test(media);

// As the generator classifies media types (src/model/media.ts): the runtime reads the type each answer has.
const textType =
  /^(text\/.+|[^\s;/]+\/[^\s;/]+\+xml|application\/((x-)?yaml|xml|jwt|sql|graphql|javascript|x-ndjson))$/;
const formType = 'application/x-www-form-urlencoded';

/**
 * `body` as text in the charset its `contentType` names: UTF-8 when it names none, or one this runtime cannot decode.
 * A byte order mark is not text, so JSON that starts with one still parses.
 */
function decodeText(body: Buffer, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder().decode(body);
  }
}

/** The answer `body` as its `contentType` (the type, and the charset of a text) says. */
export function readAnswer(body: Buffer, contentType: string | null): Answer {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === '' || isJsonMedia(type)) {
    const text = decodeText(body, contentType);
    const value = parseJson(text);
    if (type !== '' || value !== undefined) return { kind: 'json', type: type || 'application/json', value };
    return { kind: 'text', type: 'text/plain', text };
  }
  return textType.test(type) || type === formType
    ? { kind: 'text', type, text: decodeText(body, contentType) }
    : { kind: 'bytes', type, bytes: body };
}

/** What an error answer says: its JSON, or a plain text answer's text; nothing from markup or bytes. */
export const errorBody = (answer: Answer): unknown =>
  answer.kind === 'json' ? answer.value : answer.kind === 'text' && answer.type === 'text/plain' ? answer.text : null;

/**
 * The content block of a binary answer: an image or audio block, else an embedded resource whose URI is the
 * request's URL without its query (which may hold a credential) or user information.
 */
export function bytesBlock(answer: { readonly type: string; readonly bytes: Buffer }, url: URL): ContentBlock {
  const data = answer.bytes.toString('base64');
  const mimeType = answer.type;
  if (mimeType.startsWith('image/')) return { type: 'image', data, mimeType };
  if (mimeType.startsWith('audio/')) return { type: 'audio', data, mimeType };
  return { type: 'resource', resource: { uri: `${url.origin}${url.pathname}`, mimeType, blob: data } };
}

/**
 * The message of an error answer in the shapes APIs use: `message`, `error` (a string, or an object with a
 * `message`), `errors` (strings or objects with a `message`, joined), `detail`, `title` (RFC 9457), first found first.
 */
function usualMessage(answer: unknown): unknown {
  if (!isObject(answer)) return undefined;
  const own = (value: unknown): unknown =>
    typeof value === 'string' ? value : isObject(value) ? (value.message ?? value.detail ?? value.title) : undefined;
  if (typeof answer.message === 'string') return answer.message;
  const error = own(answer.error);
  if (typeof error === 'string') return error;
  if (Array.isArray(answer.errors)) {
    const messages = answer.errors.map(own).filter((m): m is string => typeof m === 'string');
    if (messages.length > 0) return messages.join('; ');
  }
  return answer.message ?? answer.error ?? answer.detail ?? answer.title;
}

/** The message of an error answer at `pointer` (or the usual fields), redacted, cut short and quoted as data. */
export function errorMessage(answer: unknown, pointer: string | null): string | null {
  let found: unknown;
  if (pointer !== null) {
    found = answer;
    for (const token of pointer.split('/').slice(1)) {
      const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
      found = isObject(found) || Array.isArray(found) ? (found as Record<string, unknown>)[key] : undefined;
    }
  } else found = typeof answer === 'string' ? answer.trim() : usualMessage(answer);
  if (found === undefined || found === null || found === '') return null;
  // An API may echo the credential it refused: secrets and URL credentials are hidden before the caller sees it.
  return JSON.stringify(redact(text(found)).slice(0, maxMessageChars));
}
