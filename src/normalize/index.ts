/**
 * normalize: turns a validated manifest into the readonly ServerModel.
 * In: data that passed validate with no errors. Out: a deep-frozen model with
 * defaults applied, names computed by model/naming, every map sorted by name
 * with the one byte-order comparator, and schemas in canonical key order.
 * Must not report problems (validate did) and must not read the disk.
 */
import { manifestDefaults } from '../model/defaults.js';
import { camelCase, envPrefix, pascalCase } from '../model/naming.js';
import type { AuthModel, HandleModel, HttpModel, ServerModel } from '../model/types.js';
import { compareText, sortBy } from '../util/compare.js';
import { parseDuration } from '../util/duration.js';
import { entriesOf, isRecord, stringOr } from '../util/guards.js';
import { deepFreeze } from '../util/freeze.js';
import { isLoopbackHost } from '../util/net.js';
import { normalizeCache } from './cache.js';
import { normalizePrompts, normalizeResources } from './content.js';
import { normalizeTools } from './tools.js';

type Raw = Record<string, unknown>;

/** Builds the ServerModel from validated manifest data. */
export function normalizeManifest(data: unknown): ServerModel {
  const raw: Raw = isRecord(data) ? data : {};
  const server = isRecord(raw.server) ? raw.server : {};
  const protocol = isRecord(raw.protocol) ? raw.protocol : {};
  const auth = normalizeAuth(isRecord(raw.auth) ? raw.auth : {});
  const defaultScope = auth.type === 'none' ? manifestDefaults.cacheScopeWithoutAuth : manifestDefaults.cacheScopeWithAuth;
  const cache = normalizeCache(raw.cache, { ttlMs: manifestDefaults.cacheTtlMs, scope: defaultScope });
  const handleDescriptions = new Map(entriesOf(raw.handles).map(([kind, h]) => [kind, isRecord(h) ? stringOr(h.description) ?? '' : '']));
  const tools = normalizeTools(raw.tools, handleDescriptions);
  const name = stringOr(server.name) ?? 'server';
  const prefix = envPrefix(name);

  const model: ServerModel = {
    server: {
      name,
      version: stringOr(server.version) ?? '0.0.0',
      title: stringOr(server.title) ?? null,
      description: stringOr(server.description) ?? null,
      instructions: stringOr(server.instructions) ?? null,
    },
    protocol: {
      versions: Array.isArray(protocol.versions) ? protocol.versions.filter((v): v is string => typeof v === 'string') : [...manifestDefaults.protocolVersions],
      legacy: protocol.legacy === 'reject' ? 'reject' : manifestDefaults.legacy,
    },
    cache,
    transports: normalizeTransports(raw.transports),
    auth,
    secrets: {
      handleKeyEnv: (isRecord(raw.secrets) ? stringOr(raw.secrets.handleKeyEnv) : undefined) ?? `${prefix}_HANDLE_KEY`,
      requestStateKeyEnv: (isRecord(raw.secrets) ? stringOr(raw.secrets.requestStateKeyEnv) : undefined) ?? `${prefix}_STATE_KEY`,
    },
    handles: normalizeHandles(raw.handles, tools),
    tools,
    resources: normalizeResources(raw.resources, cache),
    prompts: normalizePrompts(raw.prompts),
    lint: { maxTools: isRecord(raw.lint) && typeof raw.lint.maxTools === 'number' ? raw.lint.maxTools : manifestDefaults.maxTools },
    registry: isRecord(raw.registry)
      ? { name: stringOr(raw.registry.name) ?? '', npm: stringOr(raw.registry.npm) ?? null, remote: stringOr(raw.registry.remote) ?? null, repository: stringOr(raw.registry.repository) ?? null }
      : null,
  };
  return deepFreeze(model);
}

function normalizeTransports(value: unknown): ServerModel['transports'] {
  if (!isRecord(value)) return { stdio: true, http: null };
  return { stdio: 'stdio' in value, http: 'http' in value ? normalizeHttp(isRecord(value.http) ? value.http : {}) : null };
}

function normalizeHttp(http: Raw): HttpModel {
  const host = stringOr(http.host) ?? manifestDefaults.httpHost;
  const origins = Array.isArray(http.allowedOrigins) ? http.allowedOrigins.filter((o): o is string => typeof o === 'string') : [];
  return {
    host,
    port: typeof http.port === 'number' ? http.port : manifestDefaults.httpPort,
    path: stringOr(http.path) ?? manifestDefaults.httpPath,
    allowedOrigins: [...new Set(origins)].sort(compareText),
    loopback: isLoopbackHost(host),
  };
}

function normalizeAuth(auth: Raw): AuthModel {
  const scopes = sortBy(
    entriesOf(auth.scopes).map(([name, description]) => ({ name, description: stringOr(description) ?? '' })),
    (s) => s.name,
  );
  if (auth.type === 'bearer') return { type: 'bearer', tokensEnv: stringOr(auth.tokensEnv) ?? '', resource: stringOr(auth.resource) ?? null, scopes };
  if (auth.type === 'oauth') {
    return { type: 'oauth', issuer: stringOr(auth.issuer) ?? '', jwksUri: stringOr(auth.jwksUri) ?? '', resource: stringOr(auth.resource) ?? '', scopes };
  }
  return { type: 'none', scopes };
}

function normalizeHandles(value: unknown, tools: ServerModel['tools']): HandleModel[] {
  const handles = entriesOf(value).map(([name, raw]): HandleModel => {
    const handle = isRecord(raw) ? raw : {};
    const ttlMs = typeof handle.ttlMs === 'number' ? handle.ttlMs : typeof handle.ttl === 'string' ? parseDuration(handle.ttl) ?? manifestDefaults.handleTtlMs : manifestDefaults.handleTtlMs;
    return {
      name,
      description: stringOr(handle.description) ?? '',
      ttlMs,
      typeName: `${pascalCase(name)}Handle`,
      issuedBy: tools.filter((t) => t.issues.some((u) => u.kind === name)).map((t) => t.name),
      consumedBy: tools.filter((t) => t.consumes.some((u) => u.kind === name)).map((t) => t.name),
      pointer: `/handles/${name}`,
    };
  });
  return sortBy(handles, (h) => h.name);
}
