/**
 * Lists and completions from handlers (manifest `list: handler`, `complete: handler`). `resources/list` pages through
 * the fixed resources (with the generator's cursors), then through each listed template's handler; the cursors of
 * those pages are sealed (AES-GCM, bound to the principal, expiring), so a client can neither read nor forge a
 * position or a handler cursor, nor continue another caller's listing. `completion/complete`
 * sends the variables and arguments a handler completes to it, and everything else to the SDK's completers. Shipped
 * with the resources and prompts modules, which import it.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { ToolError, type HandlerContext } from './handler.gen.js';
import { describe, handlerContext, principalIdOf, type CallEnv } from './call.gen.js';
import type { ResourceSpec } from './spec.gen.js';

/** One member of a `list: handler` resource: a URI of its `uriTemplate` and a name; `mimeType` defaults to its own. */
export type ListedResource = {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
};

/**
 * What a list handler gets: its own `cursor` from the previous page (undefined first) and the room left on the page,
 * the number of members to aim for.
 */
export type ListRequest = { readonly cursor: string | undefined; readonly pageSize: number };

/** A page of a list handler: the members, and the cursor of the next page (none after the last). */
export type ListPage = { readonly resources: readonly ListedResource[]; readonly nextCursor?: string };

/** What a completion handler returns: the values (at most 100 are sent), or them with the `total` and `hasMore`. */
export type CompletionReply =
  | readonly string[]
  | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/** A list handler of any resource; ResourceListHandler<N> in types.gen.ts is the precise one. */
export type AnyListHandler = (
  request: { readonly cursor: string | undefined; readonly pageSize: number },
  ctx: HandlerContext<never, never>,
) => Promise<ListPage>;

/** A completion handler of any resource or prompt; ResourceCompleteHandler<N> / PromptCompleteHandler<N> type it. */
export type AnyCompleteHandler = (
  request: { readonly argument: never; readonly value: string; readonly context: never },
  ctx: HandlerContext<never, never>,
) => Promise<CompletionReply>;

/** A listed template: its spec, whether a URI belongs to it, and its handler. */
export type ListedTemplate = {
  readonly spec: ResourceSpec;
  readonly matches: (uri: string) => boolean;
  readonly list: AnyListHandler | undefined;
};

type Handler = (
  request: { readonly params?: Record<string, unknown> },
  ctx: ServerContext,
) => Promise<Record<string, unknown>>;

/** The parts of a completion/complete request routing reads (the SDK validated the shape). */
type CompleteParams = {
  readonly ref?: { readonly type?: string; readonly uri?: string; readonly name?: string };
  readonly argument?: { readonly name?: string; readonly value?: string };
  readonly context?: { readonly arguments?: Record<string, string> };
};

/** Replaces the SDK's handler of `method` with `wrap(sdk's)`; nothing when the SDK registered none. */
function wrapRequest(server: McpServer, method: string, wrap: (previous: Handler) => Handler): void {
  // The SDK's handler chain for a method: the protected accessor its role classes use for the same purpose.
  const sdk = server.server as unknown as { _getRequestHandler(method: string): Handler | undefined };
  const previous = sdk._getRequestHandler(method);
  if (previous === undefined) return;
  (server.server.setRequestHandler as (method: string, handler: Handler) => void).call(
    server.server,
    method,
    wrap(previous),
  );
}

/**
 * The key that seals list cursors: derived from the request-state key when it is set (shared by every instance, so any
 * instance continues a listing), else one per process (a cursor from another instance is then -32602 and the client
 * lists again from the start).
 */
let sealKey: Buffer | undefined;
function cursorKey(env: CallEnv): Buffer {
  if (sealKey !== undefined) return sealKey;
  const name = env.registry.secrets.requestStateKeyEnv;
  const shared = env.environment[name] ?? '';
  // Start-up refused a short key outside loopback and stdio (start.gen.ts); here it is development.
  if (shared !== '' && Buffer.byteLength(shared) < 32)
    env.log(`warning: ${name} is shorter than 32 bytes; list cursors use a key of this process only`);
  sealKey =
    Buffer.byteLength(shared) >= 32
      ? createHmac('sha256', shared).update('mcp-gen list cursors').digest()
      : randomBytes(32);
  return sealKey;
}

/** How long a sealed list cursor is accepted after its page was sent; later the client lists again from the start. */
export const cursorLifetimeMs = 60 * 60 * 1000;

/** A listing position: the listed template's index and the handler's own cursor (null: its first page). */
export type Position = readonly [number, string | null];

/** Binds a sealed cursor to the request it continues. */
const cursorContext = Buffer.from('mcp-gen resources/list');

/**
 * `position`, the principal it was listed for and its expiry, encrypted and authenticated with AES-256-GCM: a client
 * can neither read the handler's cursor nor forge or edit a position. Random IV, so equal positions seal differently.
 */
export function sealCursor(key: Buffer, position: Position, principal: string, now: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(cursorContext);
  const payload = JSON.stringify([position[0], position[1], principal, now + cursorLifetimeMs]);
  const sealed = Buffer.concat([cipher.update(payload, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/**
 * The position sealed in `cursor`, for a template index below `count`; -32602 when this server did not seal it, it
 * was sealed for another principal, or it expired.
 */
export function openCursor(key: Buffer, cursor: string, count: number, principal: string, now: number): Position {
  const refuse = (why: string) =>
    new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor for resources/list${why}`, { cursor });
  let payload: unknown;
  try {
    const bytes = Buffer.from(cursor, 'base64url');
    // Node's decoder skips what is not base64url: only the exact text this server sent is its cursor.
    if (bytes.toString('base64url') !== cursor) throw refuse('');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12), { authTagLength: 16 });
    decipher.setAAD(cursorContext).setAuthTag(bytes.subarray(12, 28));
    payload = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'));
  } catch {
    throw refuse('');
  }
  if (!Array.isArray(payload)) throw refuse('');
  const [index, handlerCursor, owner, expires] = payload as [number, string | null, string, number];
  if (!Number.isInteger(index) || index < 0 || index >= count) throw refuse('');
  if (owner !== principal) throw refuse(': it was issued to another caller; list again from the start');
  if (!(now < expires)) throw refuse(': it expired; list again from the start');
  return [index, handlerCursor];
}

/** Why a list or completion handler failed, as the client may see it; details of anything else go to the log. */
function failure(error: unknown, what: string, env: CallEnv): ProtocolError {
  if (error instanceof ToolError)
    return new ProtocolError(
      error.kind === 'invalid' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
      error.message,
    );
  env.log(`${what} failed: ${describe(error)}`);
  return new ProtocolError(ProtocolErrorCode.InternalError, `${what} failed. Details were logged on the server.`);
}

/** One page of a listed template, checked: every URI must belong to the template, else nothing of it is sent. */
async function listPage(
  template: ListedTemplate,
  cursor: string | null,
  size: number,
  ctx: ServerContext,
  env: CallEnv,
): Promise<{ readonly items: Record<string, unknown>[]; readonly next: string | undefined }> {
  const what = `Listing resource "${template.spec.name}"`;
  let page: ListPage;
  try {
    if (template.list === undefined) throw new Error('the resource has no list handler');
    page = await template.list({ cursor: cursor ?? undefined, pageSize: size }, handlerContext(ctx, env) as never);
  } catch (error) {
    throw failure(error, what, env);
  }
  const foreign = page.resources.find((r) => typeof r.name !== 'string' || !template.matches(r.uri));
  if (foreign !== undefined)
    throw failure(
      new Error(`it returned "${foreign.uri}", not a named URI of ${template.spec.uriTemplate}`),
      what,
      env,
    );
  const { mimeType } = template.spec.listing;
  return {
    items: page.resources.map((r) => ({ ...(mimeType === undefined ? {} : { mimeType }), ...r })),
    next: page.nextCursor,
  };
}

/**
 * Serves `resources/list` with the listed templates after the fixed resources, every page filled up to the page size
 * in that order: the fixed pages keep their generated cursors, and the last of them is filled from the listed
 * templates (a client that reads only the first page sees fixed and listed resources alike); a handler page is asked
 * for the room left, and a template that ends leaves its room to the next.
 */
export function pageListedResources(
  server: McpServer,
  listed: readonly ListedTemplate[],
  fixedCursors: readonly string[],
  env: CallEnv,
): void {
  const size = env.registry.pages.size;
  wrapRequest(server, 'resources/list', (whole) => async (request, ctx) => {
    const key = cursorKey(env);
    const principal = principalIdOf(ctx.http?.authInfo);
    const now = Date.now();
    const cursor: unknown = request.params?.cursor;
    const fixedPage = cursor === undefined ? 0 : fixedCursors.indexOf(cursor as string) + 1;
    const position =
      fixedPage === 0 && cursor !== undefined ? openCursor(key, String(cursor), listed.length, principal, now) : null;
    const result = await whole({ ...request, params: { ...request.params, cursor: undefined } }, ctx);
    const fixed = (result.resources ?? []) as unknown[];
    const items = position === null ? fixed.slice(fixedPage * size, (fixedPage + 1) * size) : [];
    if (position === null && fixedPage < fixedCursors.length)
      return { ...result, resources: items, nextCursor: fixedCursors[fixedPage] };
    // Then the listed templates from the position, each page asked for the room left; at most one page a template.
    let [index, handlerCursor] = position ?? [0, null];
    let next: string | undefined;
    while (next === undefined && index < listed.length) {
      if (items.length >= size) next = sealCursor(key, [index, handlerCursor], principal, now);
      else {
        const page = await listPage(listed[index] as ListedTemplate, handlerCursor, size - items.length, ctx, env);
        items.push(...page.items);
        if (page.next !== undefined) next = sealCursor(key, [index, page.next], principal, now);
        else [index, handlerCursor] = [index + 1, null];
      }
    }
    return { ...result, resources: items, ...(next === undefined ? {} : { nextCursor: next }) };
  });
}

/** A completion handler for one reference (`ref/resource` URI template or `ref/prompt` name), by argument. */
export type Completer = { readonly handler: AnyCompleteHandler | undefined; readonly of: string };
export type Completers = ReadonlyMap<string, Completer>;

function completionOf(reply: CompletionReply): { values: string[]; total: number; hasMore: boolean } {
  const values = Array.isArray(reply) ? reply : (reply as { values: readonly string[] }).values;
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
    throw new Error('it returned something other than a list of strings');
  const extra = Array.isArray(reply) ? {} : (reply as { total?: number; hasMore?: boolean });
  return {
    values: values.slice(0, 100),
    total: extra.total ?? values.length,
    hasMore: extra.hasMore ?? values.length > 100,
  };
}

/**
 * Answers `completion/complete` for `refType` references whose argument `completers` names (key `ref \n argument`)
 * from the handler, with the other arguments the client already resolved as `context`; the rest goes to the SDK.
 */
export function routeCompletions(
  server: McpServer,
  refType: 'ref/resource' | 'ref/prompt',
  completers: Completers,
  env: CallEnv,
): void {
  if (completers.size === 0) return;
  wrapRequest(server, 'completion/complete', (sdk) => async (request, ctx) => {
    const { ref, argument, context } = (request.params ?? {}) as CompleteParams;
    const found = ref?.type === refType ? completers.get(`${ref.uri ?? ref.name}\n${argument?.name}`) : undefined;
    if (found === undefined) return sdk(request, ctx);
    const what = `Completing "${argument?.name}" of ${found.of}`;
    try {
      if (found.handler === undefined) throw new Error('it has no completion handler');
      const args = {
        argument: argument?.name,
        value: String(argument?.value ?? ''),
        context: context?.arguments ?? {},
      };
      return { completion: completionOf(await found.handler(args as never, handlerContext(ctx, env) as never)) };
    } catch (error) {
      throw failure(error, what, env);
    }
  });
}
