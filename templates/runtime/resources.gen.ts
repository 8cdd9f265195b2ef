/**
 * Resources: registration of fixed URIs and URI templates (with completions
 * of template variables), and the call of one resource handler. Only projects
 * whose manifest declares resources contain this module.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError as SdkResourceNotFoundError,
  ResourceTemplate,
  type InputRequiredResult,
  type ReadResourceResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  ResourceNotFoundError,
  SdkResult,
  ToolError,
  type AnySdkResult,
  type ResourceContent,
  type ResourceReply,
} from './handler.gen.js';
import type { AnyResourceHandler, Registrar } from './register.gen.js';
import { describe, handlerContext, passThrough, type CallEnv } from './call.gen.js';
import {
  pageListedResources,
  routeCompletions,
  type AnyCompleteHandler,
  type AnyListHandler,
  type Completer,
  type ListedTemplate,
} from './dynamic.gen.js';
import type { ResourceSpec } from './spec.gen.js';

/**
 * The declared values that start with what the user typed; the SDK caps the answer at 100 and sets `total` / `hasMore`.
 */
export function completeFrom(values: readonly string[]): (typed: string) => string[] {
  return (typed) => values.filter((value) => value.startsWith(typed ?? ''));
}

function toContents(
  reply: Exclude<ResourceReply, SdkResult<AnySdkResult>>,
  uri: URL,
  spec: ResourceSpec,
): ReadResourceResult['contents'] {
  const mimeType = spec.listing.mimeType === undefined ? {} : { mimeType: spec.listing.mimeType };
  const list: readonly ResourceContent[] =
    typeof reply === 'string' ? [{ text: reply }] : Array.isArray(reply) ? reply : [reply as ResourceContent];
  return list.map((content) => ({ uri: content.uri ?? uri.href, ...mimeType, ...content }));
}

/**
 * Calls a resource handler; a missing resource or a bad variable is -32602, a ToolError's conflict or failure -32603
 * with its message, anything unexpected a generic -32603.
 */
export async function callResource(
  spec: ResourceSpec,
  handler: AnyResourceHandler | undefined,
  uri: URL,
  variables: Record<string, string | string[]>,
  ctx: ServerContext,
  env: CallEnv,
): Promise<ReadResourceResult | InputRequiredResult> {
  if (handler === undefined)
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The resource "${spec.name}" has no handler.`);
  try {
    const reply = await handler(uri, variables as never, handlerContext(ctx, env) as never);
    if (reply instanceof SdkResult) return await passThrough(reply, ctx, env);
    return { contents: toContents(reply, uri, spec) };
  } catch (error) {
    // The error model (ToolError's kind): not found is the spec's -32602 with the URI; the handler's own message is
    // kept.
    if (error instanceof ResourceNotFoundError) throw new SdkResourceNotFoundError(error.uri);
    if (error instanceof ToolError && error.kind === 'not_found')
      throw new SdkResourceNotFoundError(uri.href, error.message);
    if (error instanceof ToolError)
      throw new ProtocolError(
        error.kind === 'invalid' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
        error.message,
      );
    env.log(`resource "${spec.name}" failed: ${describe(error)}`);
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Reading resource "${spec.name}" failed. Details were logged on the server.`,
    );
  }
}

/**
 * Registers every resource of the registry, in registry (sorted) order; `list: handler` templates join resources/list
 * and `complete` variables go to their completion handler (dynamic.gen.ts).
 */
export const registerResources: Registrar = (server, handlers, env) => {
  const listed: ListedTemplate[] = [];
  const completers = new Map<string, Completer>();
  for (const resource of env.registry.resources) {
    const handler = handlers.resources[resource.name];
    const metadata = {
      ...resource.listing,
      cacheHint: { ttlMs: resource.cache.ttlMs, cacheScope: resource.cache.scope },
    };
    if (resource.uri !== null) {
      server.registerResource(resource.name, resource.uri, metadata, (uri: URL, ctx: ServerContext) =>
        callResource(resource, handler, uri, {}, ctx, env),
      );
    } else {
      const complete = Object.fromEntries(
        Object.entries(resource.completions ?? {}).map(([variable, values]) => [variable, completeFrom(values)]),
      );
      // A handler's variable gets an empty SDK completer too, so the SDK serves completion/complete; routeCompletions
      // answers it from the handler first.
      for (const variable of resource.complete ?? []) {
        complete[variable] = () => [];
        const of = `resource "${resource.name}"`;
        completers.set(`${resource.uriTemplate}\n${variable}`, {
          handler: handlers.resourceCompletions?.[resource.name] as AnyCompleteHandler | undefined,
          of,
        });
      }
      const template = new ResourceTemplate(resource.uriTemplate ?? '', { list: undefined, complete });
      if (resource.list === true)
        listed.push({
          spec: resource,
          matches: (uri) => template.uriTemplate.match(uri) !== null,
          list: handlers.resourceLists?.[resource.name] as AnyListHandler | undefined,
        });
      server.registerResource(
        resource.name,
        template,
        metadata,
        (uri: URL, variables: Record<string, string | string[]>, ctx: ServerContext) =>
          callResource(resource, handler, uri, variables, ctx, env),
      );
    }
  }
  if (listed.length > 0) pageListedResources(server, listed, env.registry.pages.cursors.resources, env);
  routeCompletions(server, 'ref/resource', completers, env);
};
