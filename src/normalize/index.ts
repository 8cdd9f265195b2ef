/**
 * normalize: turns a validated manifest into the readonly ServerModel.
 * In: a Manifest that passed validate with no errors, so its shape is the
 * schema's. Out: a deep-frozen model with defaults applied, names computed by
 * model/naming, every map sorted by name with the one byte-order comparator,
 * and schemas in canonical key order. Must not report problems (validate did)
 * and must not read the disk.
 */
import { manifestDefaults } from '../model/defaults.js';
import type { ManifestAuth, ManifestHandle, ManifestHttp, ManifestStore, Manifest } from '../model/manifest.gen.js';
import { envPrefix, pascalCase } from '../model/naming.js';
import type { ListName, NotificationsModel } from '../model/notifications.js';
import type {
  AuthModel,
  ExampleModel,
  HandleModel,
  HttpModel,
  ServerModel,
  StdioModel,
  StoreModel,
} from '../model/types.js';
import { compareText, sortBy } from '../util/compare.js';
import { deepFreeze } from '../util/freeze.js';
import { type Memo, noMemo } from '../util/memo.js';
import { sortKeysDeep } from '../util/stable-json.js';
import { isLoopbackHost } from '../util/net.js';
import { durationMs } from '../util/duration.js';
import { normalizeCache } from './cache.js';
import { normalizePrompts, normalizeResources } from './content.js';
import { normalizeSharedSchemas, normalizeTools, normalizeToolsets } from './tools.js';
import { normalizeUpstream } from './bindings.js';
import { normalizeIcons } from './metadata.js';

/** Builds the ServerModel from a validated manifest. */
export function normalizeManifest(manifest: Manifest, memo: Memo = noMemo): ServerModel {
  const auth = normalizeAuth(manifest.auth);
  const defaultScope =
    auth.type === 'none' ? manifestDefaults.cacheScopeWithoutAuth : manifestDefaults.cacheScopeWithAuth;
  const cache = normalizeCache(manifest.cache, { ttlMs: manifestDefaults.cacheTtlMs, scope: defaultScope });
  const handles = manifest.handles ?? {};
  const schemas = normalizeSharedSchemas(manifest.schemas ?? {}, memo);
  const { toolsets, tools } = normalizeToolsets(
    manifest.toolsets ?? {},
    manifest.tools ?? {},
    normalizeTools(
      manifest.tools ?? {},
      new Map(Object.entries(handles).map(([kind, h]) => [kind, h.description])),
      new Map(schemas.map((s) => [s.name, s])),
      memo,
    ),
    memo,
  );
  const { server, protocol, secrets } = manifest;
  const prefix = envPrefix(server.name);

  const model: ServerModel = {
    server: {
      name: server.name,
      version: server.version,
      wireVersion: server.wireVersion ?? null,
      title: server.title ?? null,
      description: server.description ?? null,
      instructions: server.instructions ?? null,
      icons: normalizeIcons(server.icons),
    },
    protocol: {
      versions: [...(protocol?.versions ?? manifestDefaults.protocolVersions)],
      legacy: protocol?.legacy ?? manifestDefaults.legacy,
    },
    cache,
    pagination: { pageSize: manifest.pagination?.pageSize ?? manifestDefaults.pageSize },
    notifications: normalizeNotifications(manifest),
    transports:
      manifest.transports === undefined
        ? { stdio: normalizeStdio(null), http: null }
        : {
            stdio: 'stdio' in manifest.transports ? normalizeStdio(manifest.transports.stdio ?? null) : null,
            http: manifest.transports.http === undefined ? null : normalizeHttp(manifest.transports.http),
          },
    auth,
    secrets: {
      handleKeyEnv: secrets?.handleKeyEnv ?? `${prefix}_HANDLE_KEY`,
      requestStateKeyEnv: secrets?.requestStateKeyEnv ?? `${prefix}_STATE_KEY`,
    },
    config: sortBy(Object.entries(manifest.config ?? {}), ([name]) => name).map(([name, v]) => ({
      name,
      description: v.description,
      type: v.type ?? 'string',
      required: v.required ?? v.default === undefined,
      default: v.default ?? null,
      secret: v.secret ?? false,
      pointer: `/config/${name}`,
    })),
    store: normalizeStore(manifest.store),
    approvals: {
      page: manifest.approvals?.page ?? manifestDefaults.approvalPage,
      ttlMs: durationMs(manifest.approvals?.ttl, undefined, manifestDefaults.approvalTtlMs),
    },
    telemetry: { type: manifest.telemetry?.type ?? manifestDefaults.telemetry },
    handles: normalizeHandles(handles, tools),
    schemas,
    tools,
    toolsets,
    targets: [...new Set(manifest.targets ?? (['node'] as const))].sort(),
    discovery: manifest.discovery ?? 'tools',
    resources: normalizeResources(manifest.resources ?? {}, cache),
    prompts: normalizePrompts(manifest.prompts ?? {}),
    examples: normalizeExamples(manifest),
    lint: { maxTools: manifest.lint?.maxTools ?? manifestDefaults.maxTools },
    review: {
      maxListTokens: manifest.review?.maxListTokens ?? manifestDefaults.maxListTokens,
      hosts: [...new Set(manifest.review?.hosts ?? [])].sort(compareText),
    },
    registry:
      manifest.registry === undefined
        ? null
        : {
            name: manifest.registry.name,
            npm: manifest.registry.npm ?? null,
            remote: manifest.registry.remote ?? null,
            repository: manifest.registry.repository ?? null,
          },
    upstream: normalizeUpstream(manifest.upstream),
  };
  return deepFreeze(model);
}

/** Every example, in a fixed order, with sorted keys: the contract tests' calls. */
function normalizeExamples(manifest: Manifest): ExampleModel[] {
  const byName = <T>(entries: Readonly<Record<string, T>> | undefined) =>
    sortBy(Object.entries(entries ?? {}), ([name]) => name);
  const make = (
    kind: ExampleModel['kind'],
    name: string,
    params: Record<string, unknown>,
    e: { output?: unknown; text?: string; error?: string },
    writes = false,
  ): ExampleModel => ({
    kind,
    name,
    writes,
    params: sortKeysDeep(params) as Record<string, unknown>,
    output: e.output === undefined ? null : sortKeysDeep(e.output),
    text: e.text ?? null,
    error: e.error ?? null,
  });
  return [
    ...byName(manifest.tools).flatMap(([name, tool]) =>
      (tool.examples ?? []).map((e) =>
        make('tool', name, { name, arguments: e.input }, e, tool.annotations?.readOnlyHint !== true),
      ),
    ),
    ...byName(manifest.resources).flatMap(([name, resource]) =>
      (resource.examples ?? []).map((e) => make('resource', name, { uri: e.uri }, e)),
    ),
    ...byName(manifest.prompts).flatMap(([name, prompt]) =>
      (prompt.examples ?? []).map((e) => make('prompt', name, { name, arguments: e.arguments }, e)),
    ),
  ];
}

/** `stdio: {}`, an empty `stdio:` (null) or one with limits. */
/** The declared changes, sorted; a list the manifest leaves empty has nothing to announce. */
function normalizeNotifications(manifest: Manifest): NotificationsModel {
  const present: Record<ListName, boolean> = {
    tools: Object.keys(manifest.tools ?? {}).length > 0,
    resources: Object.keys(manifest.resources ?? {}).length > 0,
    prompts: Object.keys(manifest.prompts ?? {}).length > 0,
  };
  const declared = manifest.notifications?.listChanged ?? [];
  return {
    listChanged: [...declared].filter((list) => present[list]).sort(compareText),
    resourceUpdates: (manifest.notifications?.resourceUpdates ?? false) && present.resources,
  };
}

function normalizeStdio(stdio: { readonly maxConcurrentCalls?: number } | null): StdioModel {
  return { maxConcurrentCalls: stdio?.maxConcurrentCalls ?? manifestDefaults.stdioMaxConcurrentCalls };
}

function normalizeHttp(http: ManifestHttp): HttpModel {
  const host = http.host ?? manifestDefaults.httpHost;
  return {
    host,
    port: http.port ?? manifestDefaults.httpPort,
    path: http.path ?? manifestDefaults.httpPath,
    allowedOrigins: [...new Set(http.allowedOrigins ?? [])].sort(compareText),
    loopback: isLoopbackHost(host),
    maxConcurrentCalls: http.maxConcurrentCalls ?? manifestDefaults.httpMaxConcurrentCalls,
    maxBufferedBytes: http.maxBufferedBytes ?? manifestDefaults.httpMaxBufferedBytes,
    shutdownGraceMs: durationMs(http.shutdownGrace, undefined, manifestDefaults.httpShutdownGraceMs),
    maxListenStreams: http.maxListenStreams ?? manifestDefaults.httpMaxListenStreams,
    maxListenStreamsPerPrincipal:
      http.maxListenStreamsPerPrincipal ?? manifestDefaults.httpMaxListenStreamsPerPrincipal,
    listenKeepAliveMs: durationMs(http.listenKeepAlive, undefined, manifestDefaults.httpListenKeepAliveMs),
    listenIdleMs: durationMs(http.listenIdleTimeout, undefined, manifestDefaults.httpListenIdleMs),
  };
}

function normalizeStore(store: ManifestStore | undefined): StoreModel {
  const idempotencyTtlMs = durationMs(store?.idempotencyTtl, undefined, manifestDefaults.idempotencyTtlMs);
  if (store?.type === 'redis')
    return { type: 'redis', urlEnv: validated(store.urlEnv, 'store.urlEnv'), idempotencyTtlMs };
  return { type: 'memory', idempotencyTtlMs };
}

function normalizeAuth(auth: ManifestAuth | undefined): AuthModel {
  const scopes = sortBy(
    Object.entries(auth?.scopes ?? {}).map(([name, description]) => ({ name, description })),
    (s) => s.name,
  );
  const grants = sortBy(
    Object.entries(auth?.grants ?? {}).map(([scope, admits]) => ({ scope, admits })),
    (g) => g.scope,
  );
  if (auth?.type === 'bearer')
    return {
      type: 'bearer',
      tokensEnv: validated(auth.tokensEnv, 'auth.tokensEnv'),
      resource: auth.resource ?? null,
      scopes,
      grants,
    };
  if (auth?.type === 'oauth') {
    return {
      type: 'oauth',
      issuer: validated(auth.issuer, 'auth.issuer'),
      jwksUri: validated(auth.jwksUri, 'auth.jwksUri'),
      resource: validated(auth.resource, 'auth.resource'),
      scopes,
      grants,
    };
  }
  return { type: 'none', scopes, grants };
}

/**
 * A key the schema requires only for some `auth.type` (an `if`/`then` the
 * generated type cannot express); validate has reported it when missing.
 */
function validated(value: string | undefined, key: string): string {
  if (value === undefined) throw new Error(`internal error: ${key} passed validation but is missing`);
  return value;
}

function normalizeHandles(
  handles: Readonly<Record<string, ManifestHandle>>,
  tools: ServerModel['tools'],
): HandleModel[] {
  const models = Object.entries(handles).map(
    ([name, handle]): HandleModel => ({
      name,
      description: handle.description,
      ttlMs: durationMs(handle.ttl, handle.ttlMs, manifestDefaults.handleTtlMs),
      exampleId: handle.exampleId ?? manifestDefaults.handleExampleId,
      typeName: `${pascalCase(name)}Handle`,
      issuedBy: tools.filter((t) => t.issues.some((u) => u.kind === name)).map((t) => t.name),
      consumedBy: tools.filter((t) => t.consumes.some((u) => u.kind === name)).map((t) => t.name),
      pointer: `/handles/${name}`,
    }),
  );
  return sortBy(models, (h) => h.name);
}
