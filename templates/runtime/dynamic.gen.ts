/**
 * Lists and completions from handlers (manifest `list: handler`, `complete: handler`). `resources/list` pages through
 * the fixed resources (with the generator's cursors), then through each listed template's handler; the cursors of
 * those pages are sealed with an HMAC, so a client cannot forge a position or a handler cursor. `completion/complete`
 * sends the variables and arguments a handler completes to it, and everything else to the SDK's completers. Shipped
 * with the resources and prompts modules, which import it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { ToolError, type HandlerContext } from './handler.gen.js';
import { describe, handlerContext, type CallEnv } from './register.gen.js';
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
 * The key that seals list cursors: the request-state key when it is set (shared by every instance, so any instance
 * continues a listing), else one per process (a cursor from another instance is then -32602 and the client lists
 * again from the start).
 */
let sealKey: Buffer | undefined;
function cursorKey(env: CallEnv): Buffer {
  const shared = env.environment[env.registry.secrets.requestStateKeyEnv];
  sealKey ??=
    shared !== undefined && shared.length >= 32
      ? createHmac('sha256', shared).update('mcp-gen list cursors').digest()
      : randomBytes(32);
  return sealKey;
}

/** A listing position: the listed template's index and the handler's own cursor (null: its first page). */
type Position = readonly [number, string | null];

const mac = (key: Buffer, body: string): Buffer => createHmac('sha256', key).update(`resources\n${body}`).digest();

function seal(key: Buffer, position: Position): string {
  const body = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
  return `${body}.${mac(key, body).subarray(0, 18).toString('base64url')}`;
}

function open(key: Buffer, cursor: string, count: number): Position | null {
  const [body = '', tag = '', ...rest] = cursor.split('.');
  const expected = mac(key, body).subarray(0, 18);
  const given = Buffer.from(tag, 'base64url');
  if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const position = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Position;
  return position[0] < count ? position : null;
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
  const mimeType = template.spec.mimeType === null ? {} : { mimeType: template.spec.mimeType };
  return { items: page.resources.map((r) => ({ ...mimeType, ...r })), next: page.nextCursor };
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
    const cursor: unknown = request.params?.cursor;
    const fixedPage = cursor === undefined ? 0 : fixedCursors.indexOf(cursor as string) + 1;
    const position = fixedPage === 0 && typeof cursor === 'string' ? open(key, cursor, listed.length) : null;
    if (fixedPage === 0 && cursor !== undefined && position === null)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor for resources/list', { cursor });
    const result = await whole({ ...request, params: { ...request.params, cursor: undefined } }, ctx);
    const fixed = (result.resources ?? []) as unknown[];
    const items = position === null ? fixed.slice(fixedPage * size, (fixedPage + 1) * size) : [];
    if (position === null && fixedPage < fixedCursors.length)
      return { ...result, resources: items, nextCursor: fixedCursors[fixedPage] };
    // Then the listed templates from the position, each page asked for the room left; at most one page a template.
    let [index, handlerCursor] = position ?? [0, null];
    let next: string | undefined;
    while (next === undefined && index < listed.length) {
      if (items.length >= size) next = seal(key, [index, handlerCursor]);
      else {
        const page = await listPage(listed[index] as ListedTemplate, handlerCursor, size - items.length, ctx, env);
        items.push(...page.items);
        if (page.next !== undefined) next = seal(key, [index, page.next]);
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
