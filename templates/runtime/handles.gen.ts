/**
 * State handles: opaque, unguessable, expiring tokens that carry a workflow
 * across stateless calls. A handle is HMAC-SHA256-signed over its kind, the
 * application id it stands for, the principal it was issued to and its
 * expiry, so any instance holding the same key can verify it and nothing is
 * kept in process memory.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { loadKey } from './keys.gen.js';
import type { HandleHooks } from './hooks.gen.js';
import type { Startup } from './startup.gen.js';

/** Why a state handle was refused; the message is safe to show to a client. */
export class HandleError extends Error {
  override readonly name = 'HandleError';
}

/** A handle of kind `K` as it travels on the wire: a string that only this server can mint. */
export type Handle<K extends string> = string & { readonly __mcpGenHandleKind: K };

/** A handle that passed verification, as a handler receives it. */
export interface Verified<H extends Handle<string>> {
  readonly kind: H extends Handle<infer K> ? K : string;
  /** The application id given to `issue()`. */
  readonly id: string;
  /** Milliseconds since the epoch after which the handle is refused. */
  readonly expiresAt: number;
  /** The handle exactly as the client sent it. */
  readonly token: H;
}

/** Mints handles of one kind for the current principal. */
export interface HandleIssuer<H extends Handle<string>> {
  issue(id: string): H;
}

interface Payload {
  readonly k: string;
  readonly i: string;
  readonly p: string;
  readonly e: number;
}

const version = 'h1';

function mac(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(`mcp-gen.handle.${body}`).digest('base64url');
}

/** Signs and verifies handles with one key; the key must be at least 32 bytes. */
export class HandleCodec {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    if (key.length < 32) throw new Error('handle key must be at least 32 bytes');
  }

  /** A new handle of `kind` for application id `id`, bound to `principal`, valid for `ttlMs`. */
  issue(kind: string, id: string, principal: string, ttlMs: number): string {
    const payload: Payload = { k: kind, i: id, p: principal, e: this.now() + ttlMs };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${version}.${body}.${mac(this.key, body)}`;
  }

  /** The verified contents of `token`, or a HandleError saying why it is refused. */
  verify(token: unknown, kind: string, principal: string): Verified<Handle<string>> {
    if (typeof token !== 'string' || token.length > 4096) throw new HandleError(`expected a ${kind} handle`);
    const [prefix, body, signature, ...rest] = token.split('.');
    if (prefix !== version || body === undefined || signature === undefined || rest.length > 0) {
      throw new HandleError(`not a valid ${kind} handle`);
    }
    const expected = Buffer.from(mac(this.key, body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new HandleError(`not a valid ${kind} handle`);
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    } catch {
      throw new HandleError(`not a valid ${kind} handle`);
    }
    if (payload.k !== kind) throw new HandleError(`expected a ${kind} handle, got a ${payload.k} handle`);
    if (payload.p !== principal) throw new HandleError(`this ${kind} handle was issued to someone else`);
    if (payload.e <= this.now()) throw new HandleError(`this ${kind} handle has expired; start again to get a new one`);
    return { kind: payload.k, id: payload.i, expiresAt: payload.e, token: token as Handle<string> };
  }

  /**
   * `args` with every handle that `uses` points at (JSON pointers into the
   * tool's input schema) replaced by its verified contents; throws a
   * HandleError for the first one that is refused.
   */
  open(
    uses: readonly { readonly kind: string; readonly pointer: string }[],
    args: unknown,
    principal: string,
  ): unknown {
    let input = args;
    for (const use of uses)
      input = mapAtPath(input, valuePath(use.pointer), (token) => this.verify(token, use.kind, principal));
    return input;
  }
}

/**
 * Converts a JSON pointer into a schema (`/properties/draft/items`) into the
 * path of the matching values in an instance (`["draft", "*"]`). Only
 * `properties` and `items` steps are followed; mcp-gen places handles there.
 */
export function valuePath(schemaPointer: string): string[] {
  const segments = schemaPointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    if (segments[i] === 'properties' && i + 1 < segments.length) path.push(segments[++i] ?? '');
    else if (segments[i] === 'items') path.push('*');
  }
  return path;
}

/** Replaces every value at `path` inside `value` with `map(value)`; returns a new value. */
export function mapAtPath(value: unknown, path: readonly string[], map: (v: unknown) => unknown): unknown {
  if (path.length === 0) return map(value);
  const [head, ...rest] = path;
  if (head === '*') return Array.isArray(value) ? value.map((item) => mapAtPath(item, rest, map)) : value;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || head === undefined || !(head in value))
    return value;
  return {
    ...(value as Record<string, unknown>),
    [head]: mapAtPath((value as Record<string, unknown>)[head], rest, map),
  };
}

/** The hooks that put handles into calls, keyed from the environment variable the registry names. */
export const handleHooks = ({ registry, environment, local, log }: Startup): HandleHooks => {
  const codec = new HandleCodec(loadKey(registry.secrets.handleKeyEnv, environment, local, log));
  return {
    issuers: (principal) =>
      Object.fromEntries(
        registry.handles.map((kind) => [
          kind.name,
          { issue: (id: string) => codec.issue(kind.name, id, principal, kind.ttlMs) },
        ]),
      ),
    open(tool, args, principal) {
      try {
        return { input: codec.open(tool.handles.consumes, args, principal) };
      } catch (error) {
        if (error instanceof HandleError) return { refused: error.message };
        throw error;
      }
    },
  };
};
