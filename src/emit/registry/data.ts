import { needsStore } from '../../model/store.js';
import type { ServerModel } from '../../model/types.js';
import { toolsetDigest, wireTools } from '../../model/toolset.js';
import { discoverContract } from './discover.js';

/**
 * The registry as plain data, keys in a fixed order (the order of the
 * runtime's RegistrySpec). The TypeScript module keeps this order; the JSON
 * copy sorts keys. Lists are already sorted by name in the model.
 */
export function registryData(model: ServerModel) {
  return {
    discover: discoverContract(model),
    server: { ...model.server },
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
            },
    },
    auth: { ...model.auth, scopes: model.auth.scopes.map((s) => ({ name: s.name, description: s.description })) },
    secrets: { handleKeyEnv: model.secrets.handleKeyEnv, requestStateKeyEnv: model.secrets.requestStateKeyEnv },
    // Only when a tool needs it, so registries without approval or idempotency keys stay as they were.
    ...(needsStore(model) ? { store: { ...model.store } } : {}),
    tools: model.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.wireInput,
      outputSchema: tool.wireOutput,
      annotations: { ...tool.annotations },
      approval: tool.approval,
      ...(tool.idempotency === 'key' ? { idempotency: tool.idempotency } : {}),
      scopes: [...tool.scopes],
      handles: { consumes: tool.consumes.map((u) => ({ ...u })), issues: tool.issues.map((u) => ({ ...u })) },
      timeoutMs: tool.timeoutMs,
    })),
    resources: model.resources.map((r) => ({
      name: r.name,
      uri: r.uri,
      uriTemplate: r.uriTemplate,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
      cache: { ttlMs: r.cache.ttlMs, scope: r.cache.scope },
      // Only when declared, so registries of manifests without completions stay as they were.
      ...(r.completions === null
        ? {}
        : { completions: Object.fromEntries(Object.entries(r.completions).map(([k, v]) => [k, [...v]])) }),
    })),
    prompts: model.prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map(({ completions, ...a }) => ({
        ...a,
        ...(completions === null ? {} : { completions: [...completions] }),
      })),
      messages: p.messages === null ? null : p.messages.map((m) => ({ ...m })),
    })),
    // What `mcp-gen verify` compares a running server's tools/list with.
    toolsetDigest: toolsetDigest(wireTools(model)),
    handles: model.handles.map((h) => ({
      name: h.name,
      description: h.description,
      ttlMs: h.ttlMs,
      issuedBy: [...h.issuedBy],
      consumedBy: [...h.consumedBy],
    })),
  };
}
