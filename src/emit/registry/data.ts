// The runtime's own declaration of the registry: the generator builds exactly what the runtime reads,
// and `npm run typecheck` fails when the two drift apart.
import type { RegistrySpec } from '../../../templates/runtime/spec.gen.js';
import { envPrefix } from '../../model/naming.js';
import type { ServerModel, ToolModel } from '../../model/types.js';
import { defaultToolsets } from '../../model/toolset.js';
import { listedTools, searchSurface } from '../../model/search.js';
import { toolsetDigest } from '../../model/toolset.js';
import { discoverContract } from './discover.js';
import { grantingScopes } from '../../model/grants.js';
import { promptListing, resourceListing, toolListing } from '../../model/listing.js';
import { type Cost, toolCosts } from '../../review/tokens.js';
import { pagesData } from './pages.js';
import { sortedLine } from '../../util/stable-json.js';
import { type Memo, noMemo } from '../../util/memo.js';

const grantedBy = (model: ServerModel, tool: ServerModel['tools'][number]) => {
  const scopes = grantingScopes(model.auth, tool);
  return scopes === null ? {} : { grantedBy: scopes };
};

/** `auth` without its grants: the runtime reads them per tool (`grantedBy`). */
function authData(model: ServerModel): RegistrySpec['auth'] {
  const { grants: _grants, ...auth } = model.auth;
  // The rest of one member of the union is that member without grants; TypeScript's rest type loses the union.
  return {
    ...auth,
    scopes: auth.scopes.map((s) => ({ name: s.name, description: s.description })),
  } as RegistrySpec['auth'];
}

/**
 * The registry as plain data, keys in a fixed order (the order of the
 * runtime's RegistrySpec). The TypeScript module keeps this order; the JSON
 * copy sorts keys. Lists are already sorted by name in the model. Given `lines`,
 * it gets each tool's `sortedLine`: the tools' page digest is built from them, and
 * a large project's registry.gen.json writes them as they are (registry/index.ts).
 */
export function registryData(
  model: ServerModel,
  costs: readonly Cost[] = toolCosts(model),
  lines?: Map<unknown, string>,
  memo: Memo = noMemo,
): RegistrySpec {
  // A tool's entry is a function of its model and the auth block: `memo` gives back the same entry, and its line.
  const tools = model.tools.map((tool) => memo.recall('registry.tool', tool, (t) => toolData(model, t)));
  if (lines !== undefined) for (const tool of tools) lines.set(tool, memo.recall('registry.line', tool, sortedLine));
  const resources = model.resources.map((r) => ({
    name: r.name,
    uri: r.uri,
    uriTemplate: r.uriTemplate,
    listing: resourceListing(r),
    cache: { ttlMs: r.cache.ttlMs, scope: r.cache.scope },
    completions:
      r.completions === null ? null : Object.fromEntries(Object.entries(r.completions).map(([k, v]) => [k, [...v]])),
    // Only when used, so registries without dynamic lists or completions stay as they were.
    ...(r.list === null ? {} : { list: true as const }),
    ...(r.complete === null ? {} : { complete: [...r.complete.variables] }),
  }));
  const prompts = model.prompts.map((p) => ({
    name: p.name,
    listing: promptListing(p),
    arguments: p.arguments.map((a) => ({ ...a, completions: a.completions === null ? null : [...a.completions] })),
    messages: p.messages === null ? null : p.messages.map((m) => ({ ...m })),
    ...(p.complete === null ? {} : { complete: [...p.complete.arguments] }),
  }));
  return {
    discover: discoverContract(model),
    server: {
      name: model.server.name,
      version: model.server.wireVersion ?? model.server.version,
      title: model.server.title,
      description: model.server.description,
      instructions: model.server.instructions,
    },
    protocol: { versions: [...model.protocol.versions], legacy: model.protocol.legacy },
    cache: { ttlMs: model.cache.ttlMs, scope: model.cache.scope },
    transports: {
      stdio: model.transports.stdio,
      http:
        model.transports.http === null
          ? null
          : {
              host: model.transports.http.host,
              port: model.transports.http.port,
              path: model.transports.http.path,
              allowedOrigins: [...model.transports.http.allowedOrigins],
              maxConcurrentCalls: model.transports.http.maxConcurrentCalls,
              maxBufferedBytes: model.transports.http.maxBufferedBytes,
              shutdownGraceMs: model.transports.http.shutdownGraceMs,
              maxListenStreams: model.transports.http.maxListenStreams,
              maxListenStreamsPerPrincipal: model.transports.http.maxListenStreamsPerPrincipal,
              listenKeepAliveMs: model.transports.http.listenKeepAliveMs,
              listenIdleMs: model.transports.http.listenIdleMs,
            },
    },
    auth: authData(model),
    secrets: { handleKeyEnv: model.secrets.handleKeyEnv, requestStateKeyEnv: model.secrets.requestStateKeyEnv },
    config: model.config.map((v) => ({
      name: v.name,
      type: v.type,
      required: v.required,
      default: v.default,
      secret: v.secret,
    })),
    store: { ...model.store },
    approvals: { ...model.approvals },
    tools,
    selection: {
      toolsetsEnv: `${envPrefix(model.server.name)}_TOOLSETS`,
      readOnlyEnv: `${envPrefix(model.server.name)}_READ_ONLY`,
      toolsets: model.toolsets.map((t) => ({ name: t.name, default: defaultToolsets(model).includes(t.name) })),
    },
    search:
      model.discovery === 'tools'
        ? null
        : {
            surface: searchSurface(model),
            tags: Object.fromEntries(model.tools.filter((t) => t.tags.length > 0).map((t) => [t.name, [...t.tags]])),
          },
    resources,
    prompts,
    pages: pagesData(
      model,
      {
        tools,
        prompts,
        resources: resources.filter((r) => r.uri !== null),
        resourceTemplates: resources.filter((r) => r.uriTemplate !== null),
      },
      costs,
      lines,
    ),
    notifications: {
      listChanged: [...model.notifications.listChanged],
      resourceUpdates: model.notifications.resourceUpdates,
    },
    // What `mcp-gen verify` compares a running server's tools/list with.
    toolsetDigest: toolsetDigest(listedTools(model)),
    handles: model.handles.map((h) => ({
      name: h.name,
      description: h.description,
      ttlMs: h.ttlMs,
      issuedBy: [...h.issuedBy],
      consumedBy: [...h.consumedBy],
    })),
  };
}

/** One tool's entry of the registry. */
function toolData(model: ServerModel, tool: ToolModel) {
  return {
    name: tool.name,
    listing: toolListing(tool),
    inputSchema: tool.wireInput,
    outputSchema: tool.wireOutput,
    approval: tool.approval,
    idempotency: tool.idempotency,
    scopes: [...tool.scopes],
    // Only with auth.grants, so registries without them stay as they were.
    ...grantedBy(model, tool),
    toolsets: [...tool.toolsets],
    handles: { consumes: tool.consumes.map((u) => ({ ...u })), issues: tool.issues.map((u) => ({ ...u })) },
    timeoutMs: tool.timeoutMs,
    task: tool.task,
    taskStart: tool.taskStart,
    taskTtlMs: tool.taskTtlMs,
  };
}
