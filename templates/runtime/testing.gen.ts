/**
 * Helpers for unit tests of one handler (through src/generated/index.gen.ts): `testContext()` builds the context a
 * handler receives, `expectOutput()` reads a typed reply, `readHandle()` turns a handle the test context issued into
 * what a consuming handler receives. Nothing here signs, stores or talks to a client; the server never calls it.
 */
import type { AnySdkResult, HandlerContext } from './handler.gen.js';
import { SdkResult } from './handler.gen.js';

/** An answer to one of the handler's own input requests: accepted form content, or declined or cancelled. */
export type TestAnswer = Readonly<Record<string, unknown>> | 'decline' | 'cancel';

/** What `testContext` may set; everything has a default. `C` is the generated `ToolContext`. */
export interface TestContextOptions<C extends HandlerContext<unknown> = HandlerContext<unknown>> {
  /** Who calls: `anonymous` by default, as on stdio. */
  readonly principal?: string;
  /** The caller's scopes: none by default. */
  readonly scopes?: readonly string[];
  /** Issuers to use instead of the test ones, by handle kind. */
  readonly handles?: Partial<C['handles']>;
  /** How long a handle the test context issues stays valid: 1 hour by default. */
  readonly handleTtlMs?: number;
  /** Aborts the call: never, by default. */
  readonly signal?: AbortSignal;
  /** What `setup` would return, for handlers that read `ctx.services`. */
  readonly services?: C extends { readonly services: infer S } ? S : unknown;
  /** The client's answers to the handler's input requests by id (a second round), e.g. `{ confirm: { ok: true } }`. */
  readonly answers?: Readonly<Record<string, TestAnswer>>;
  /** The `requestState` the handler returned last round. */
  readonly requestState?: string;
  /** Receives each `ctx.log` line; dropped by default. */
  readonly log?: (message: string) => void;
  /** Receives each `ctx.progress` call; dropped by default. */
  readonly progress?: (progress: number, total?: number, message?: string) => Promise<void>;
  /** Receives each `ctx.notify` call; dropped by default. */
  readonly notify?: HandlerContext<unknown>['notify'];
}

const prefix = 'test-handle.';

/**
 * The context a handler receives, with test defaults; the facade exports it typed as `testContext`.
 * @internal
 */
export function makeTestContext<C extends HandlerContext<unknown>>(options: TestContextOptions<C> = {}): C {
  const principal = { id: options.principal ?? 'anonymous', scopes: [...(options.scopes ?? [])] };
  const own = (options.handles ?? {}) as Record<string, unknown>;
  // Any kind the handler names gets an issuer: the generated types, not this module, know the kinds.
  const handles = new Proxy(own, {
    get: (target, kind) =>
      typeof kind !== 'string' || kind in target
        ? Reflect.get(target, kind)
        : { issue: (id: string) => testHandle(kind, id, principal.id, options.handleTtlMs ?? 3_600_000) },
  });
  const inputResponses = Object.fromEntries(
    Object.entries(options.answers ?? {}).map(([id, answer]) => [
      id,
      typeof answer === 'string' ? { action: answer } : { action: 'accept', content: answer },
    ]),
  );
  const context: HandlerContext<unknown> & { readonly services: unknown } = {
    principal,
    handles,
    signal: options.signal ?? new AbortController().signal,
    log: options.log ?? (() => {}),
    progress: options.progress ?? (async () => {}),
    request: { inputResponses, requestState: options.requestState },
    services: options.services ?? {},
    notify: options.notify ?? { resourceUpdated: () => {}, listChanged: () => {} },
  };
  // The one cast: C is the generated ToolContext, whose issuers are the handle kinds this object serves.
  return context as unknown as C;
}

function testHandle(kind: string, id: string, principal: string, ttlMs: number): string {
  const body = { kind, id, principal, expiresAt: Date.now() + ttlMs };
  return `${prefix}${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
}

/**
 * What a consuming handler receives for `token`, a handle a test context issued: `{ kind, id, expiresAt, token }`.
 * Throws for any other string (a real server's handles are signed and opened before the handler runs).
 */
export function readHandle<H extends string & { readonly __mcpGenHandleKind: string }>(
  token: H,
): { readonly kind: H['__mcpGenHandleKind']; readonly id: string; readonly expiresAt: number; readonly token: H } {
  if (!token.startsWith(prefix)) throw new Error(`not a handle issued by a test context: ${token}`);
  const { kind, id, expiresAt } = JSON.parse(Buffer.from(token.slice(prefix.length), 'base64url').toString('utf8'));
  return { kind, id, expiresAt, token };
}

/** The typed reply of a handler; throws, showing it, when the handler returned an SDK result as-is instead. */
export function expectOutput<T>(reply: T | SdkResult<AnySdkResult>): Exclude<T, SdkResult<AnySdkResult>> {
  if (reply instanceof SdkResult) throw new Error(`expected a typed reply, got ${JSON.stringify(reply.result)}`);
  return reply as Exclude<T, SdkResult<AnySdkResult>>;
}

/** The SDK result a handler returned as-is (e.g. `inputRequired(...)`); throws when it returned a typed reply. */
export function expectSdkResult(reply: unknown): AnySdkResult {
  if (!(reply instanceof SdkResult)) throw new Error(`expected an SDK result, got ${JSON.stringify(reply)}`);
  return reply.result;
}
