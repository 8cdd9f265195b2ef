/**
 * Runs one handler call: verifies state handles, builds the handler's
 * context, shapes the result, and keeps internals out of error messages
 * (details and stacks go to stderr only).
 */
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError as SdkResourceNotFoundError,
  type CallToolResult,
  type GetPromptResult,
  type InputRequiredResult,
  type ReadResourceResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Approvals } from './approval.gen.js';
import type { HandlerContext, Principal, PromptMessageReply, ResourceContent, ResourceReply } from './context.gen.js';
import { HandleError, ResourceNotFoundError, ToolError } from './errors.gen.js';
import type { HandleCodec } from './handles.gen.js';
import type { AnyPromptHandler, AnyResourceHandler, AnyToolHandler } from './register.gen.js';
import { SdkResult, type AnySdkResult } from './results.gen.js';
import type { PromptSpec, RegistrySpec, ResourceSpec, ToolSpec } from './spec.gen.js';

/** What every call needs besides its own arguments. */
export interface CallEnv {
  readonly registry: RegistrySpec;
  /** Signs and verifies state handles; null when the registry declares no handle kinds. */
  readonly handles: HandleCodec | null;
  /** Asks for and checks approvals; null when no tool needs one. */
  readonly approvals: Approvals | null;
  /** Writes one diagnostic line to stderr. */
  readonly log: (message: string) => void;
}

/** The principal making the request, from the verified auth info; `anonymous` without auth. */
export function principalOf(ctx: ServerContext): Principal {
  const auth = ctx.http?.authInfo;
  if (auth === undefined) return { id: 'anonymous', scopes: [] };
  const principal = typeof auth.extra?.principal === 'string' ? auth.extra.principal : auth.clientId;
  return { id: principal, scopes: [...auth.scopes] };
}

function handlerContext(ctx: ServerContext, env: CallEnv): HandlerContext<Record<string, { issue(id: string): string }>> {
  const principal = principalOf(ctx);
  const issuers: Record<string, { issue(id: string): string }> = {};
  for (const kind of env.registry.handles) {
    issuers[kind.name] = { issue: (id: string) => codecOf(env).issue(kind.name, id, principal.id, kind.ttlMs) };
  }
  // With a state key every echoed state was verified by the SDK hook and is a payload; without one it is the raw string.
  const state = ctx.mcpReq.requestState<unknown>();
  const requestState = env.approvals === null ? (typeof state === 'string' ? state : undefined) : env.approvals.handlerState(state);
  const token = ctx.mcpReq._meta?.progressToken;
  const progress = async (value: number, total?: number, message?: string): Promise<void> => {
    if (token === undefined) return;
    const params = { progressToken: token, progress: value, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
    await ctx.mcpReq.notify({ method: 'notifications/progress', params });
  };
  return {
    principal,
    handles: issuers,
    signal: ctx.mcpReq.signal,
    log: (message: string) => {
      env.log(message);
      // A no-op except on a legacy HTTP session whose client asked for logs (legacy-http.gen.ts).
      ctx.mcpReq.log('info', message).catch(() => {});
    },
    progress,
    request: { inputResponses: ctx.mcpReq.inputResponses ?? {}, requestState },
  };
}

/**
 * The result a handler wrapped in `sdkResult`, as-is, except that a handler's own `requestState`
 * is sealed when the server has a state key (the SDK's verify hook would refuse it otherwise).
 */
async function passThrough<R extends AnySdkResult>(reply: SdkResult<R>, ctx: ServerContext, env: CallEnv): Promise<R> {
  const result = reply.result;
  if (!isInputRequiredResult(result) || result.requestState === undefined || env.approvals === null) return result;
  return { ...result, requestState: await env.approvals.seal(result.requestState, ctx) };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** The handle codec; start.gen.ts loads one whenever the registry declares a handle kind. */
function codecOf(env: CallEnv): HandleCodec {
  if (env.handles === null) throw new Error('this server has no handle key, but its registry uses state handles');
  return env.handles;
}

/**
 * Calls a tool handler and shapes its result: structuredContent plus a text
 * copy, or content. Handles are verified first (a bad handle is not worth
 * asking the user about), then a tool that needs approval runs only once
 * `Approvals.check` lets it.
 */
export async function callTool(
  tool: ToolSpec,
  handler: AnyToolHandler | undefined,
  args: unknown,
  ctx: ServerContext,
  env: CallEnv,
): Promise<CallToolResult | InputRequiredResult> {
  const context = handlerContext(ctx, env);
  let input: unknown;
  try {
    input = tool.handles.consumes.length === 0 ? (args ?? {}) : codecOf(env).open(tool.handles.consumes, args ?? {}, context.principal.id);
  } catch (error) {
    if (error instanceof HandleError) return errorResult(`Invalid arguments for tool ${tool.name}: ${error.message}`);
    throw error;
  }
  if (handler === undefined) return errorResult(`The tool "${tool.name}" has no handler.`);
  if (tool.approval === 'confirm') {
    // Fail closed: a registry that asks for approval without an approvals service never runs the tool.
    if (env.approvals === null) return errorResult(`The tool "${tool.name}" needs approval, but approvals are not configured.`);
    const verdict = await env.approvals.check(tool, args ?? {}, context.principal.id, ctx);
    if (!verdict.proceed) return verdict.result;
  }
  try {
    const output = await handler(input as never, context as never);
    if (output instanceof SdkResult) return await passThrough(output as SdkResult<CallToolResult | InputRequiredResult>, ctx, env);
    if (tool.outputSchema !== null) {
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output as Record<string, unknown> };
    }
    return { content: typeof output === 'string' ? [{ type: 'text', text: output }] : [...(output as CallToolResult['content'])] };
  } catch (error) {
    if (error instanceof ToolError) return errorResult(error.message);
    env.log(`tool "${tool.name}" failed: ${describe(error)}`);
    return errorResult(`The tool "${tool.name}" failed. Details were logged on the server.`);
  }
}

function toContents(reply: Exclude<ResourceReply, SdkResult<AnySdkResult>>, uri: URL, spec: ResourceSpec): ReadResourceResult['contents'] {
  const mimeType = spec.mimeType === null ? {} : { mimeType: spec.mimeType };
  const list: readonly ResourceContent[] = typeof reply === 'string' ? [{ text: reply }] : Array.isArray(reply) ? reply : [reply as ResourceContent];
  return list.map((content) => ({ uri: content.uri ?? uri.href, ...mimeType, ...content }));
}

/** Calls a resource handler; a missing resource is -32602, anything unexpected a generic -32603. */
export async function callResource(
  spec: ResourceSpec,
  handler: AnyResourceHandler | undefined,
  uri: URL,
  variables: Record<string, string | string[]>,
  ctx: ServerContext,
  env: CallEnv,
): Promise<ReadResourceResult | InputRequiredResult> {
  if (handler === undefined) throw new ProtocolError(ProtocolErrorCode.InternalError, `The resource "${spec.name}" has no handler.`);
  try {
    const reply = await handler(uri, variables as never, handlerContext(ctx, env) as never);
    if (reply instanceof SdkResult) return await passThrough(reply, ctx, env);
    return { contents: toContents(reply, uri, spec) };
  } catch (error) {
    if (error instanceof ResourceNotFoundError) throw new SdkResourceNotFoundError(error.uri);
    if (error instanceof ToolError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    env.log(`resource "${spec.name}" failed: ${describe(error)}`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Reading resource "${spec.name}" failed. Details were logged on the server.`);
  }
}

/** Replaces `{{name}}` placeholders with argument values; a missing optional argument becomes "". */
export function renderText(text: string, args: Readonly<Record<string, string | undefined>>): string {
  return text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_match, name: string) => args[name] ?? '');
}

/** Renders a prompt from its fixed messages, or calls its handler. */
export async function callPrompt(
  spec: PromptSpec,
  handler: AnyPromptHandler | undefined,
  args: Record<string, string | undefined>,
  ctx: ServerContext,
  env: CallEnv,
): Promise<GetPromptResult | InputRequiredResult> {
  const description = spec.description === null ? {} : { description: spec.description };
  let messages: readonly PromptMessageReply[];
  if (spec.messages !== null) {
    messages = spec.messages.map((m) => ({ role: m.role, text: renderText(m.text, args) }));
  } else if (handler === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The prompt "${spec.name}" has no handler.`);
  } else {
    try {
      const reply = await handler(args as never, handlerContext(ctx, env) as never);
      if (reply instanceof SdkResult) return await passThrough(reply, ctx, env);
      messages = reply;
    } catch (error) {
      if (error instanceof ToolError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      env.log(`prompt "${spec.name}" failed: ${describe(error)}`);
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Getting prompt "${spec.name}" failed. Details were logged on the server.`);
    }
  }
  return { ...description, messages: messages.map((m) => ({ role: m.role, content: 'content' in m ? m.content : { type: 'text', text: m.text } })) };
}
