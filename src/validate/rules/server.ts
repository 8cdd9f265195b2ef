import { isEffectivelyDestructive, legacyProtocolVersion, protocolVersion } from '../../model/defaults.js';
import { grantAdmits } from '../../model/grants.js';
import type { GrantModel } from '../../model/types.js';
import { entriesOf, isRecord, stringOr } from '../../util/guards.js';
import { isLoopbackHost } from '../../util/net.js';
import { suggestClosest } from '../../util/suggest.js';
import type { RuleContext } from '../context.js';

/** Protocol revisions that generated servers implement on the modern path. */
export const implementedVersions: readonly string[] = [protocolVersion];

/** `protocol.versions`: only implemented revisions, each once. */
export function checkProtocol(ctx: RuleContext): void {
  const protocol = isRecord(ctx.data) ? ctx.data.protocol : undefined;
  const versions = isRecord(protocol) && Array.isArray(protocol.versions) ? protocol.versions : [];
  const seen = new Set<string>();
  versions.forEach((version: unknown, i) => {
    if (typeof version !== 'string') return;
    const path = ['protocol', 'versions', i];
    if (seen.has(version))
      ctx.report(
        'protocol-version-duplicate',
        path,
        `protocol version "${version}" is listed twice`,
        'list each revision once',
      );
    seen.add(version);
    if (implementedVersions.includes(version)) return;
    const hint =
      version === legacyProtocolVersion || version === '2025-06-18' || version === '2025-03-26'
        ? 'handshake-era clients are answered by "protocol.legacy: serve"; ' +
          `list only ${implementedVersions.map((v) => `"${v}"`).join(', ')}`
        : `implemented revisions: ${implementedVersions.map((v) => `"${v}"`).join(', ')}`;
    ctx.report('protocol-version-unsupported', path, `protocol version "${version}" is not implemented`, hint);
  });
}

/** Longest `description` the MCP registry accepts in `server.json`. */
export const registryDescriptionMax = 100;

/** `registry`: server.json needs a description the MCP registry accepts. */
export function checkRegistry(ctx: RuleContext): void {
  if (!isRecord(ctx.data) || !isRecord(ctx.data.registry)) return;
  const server = isRecord(ctx.data.server) ? ctx.data.server : {};
  const description = stringOr(server.description);
  if (description === undefined) {
    ctx.report(
      'registry-description',
      ['registry'],
      'registry entry needs server.description, which is missing',
      `add a server.description of at most ${registryDescriptionMax} characters`,
    );
  } else if (description.length > registryDescriptionMax) {
    ctx.report(
      'registry-description',
      ['server', 'description'],
      `server.description has ${description.length} characters; ` +
        `the MCP registry accepts at most ${registryDescriptionMax}`,
      'shorten it; longer guidance belongs in server.instructions',
    );
  }
}

/** HTTP binding, Origin allowlist and the authorization settings that depend on it. */
export function checkTransportsAndAuth(ctx: RuleContext): void {
  if (!isRecord(ctx.data)) return;
  const transports = ctx.data.transports;
  const http = isRecord(transports) && isRecord(transports.http) ? transports.http : undefined;
  const auth = isRecord(ctx.data.auth) ? ctx.data.auth : undefined;
  const authType = auth ? (stringOr(auth.type) ?? 'none') : 'none';

  if (http) {
    const host = stringOr(http.host);
    if (host !== undefined && !isLoopbackHost(host) && authType === 'none') {
      ctx.report(
        'http-public-without-auth',
        ['transports', 'http', 'host'],
        `HTTP host "${host}" is reachable from other machines but auth.type is "none"`,
        'bind to "127.0.0.1", or set auth.type to "bearer" or "oauth"',
      );
    }
    if (
      host !== undefined &&
      ['0.0.0.0', '::', '[::]'].includes(host) &&
      authType === 'bearer' &&
      auth?.resource === undefined
    ) {
      ctx.report(
        'bearer-wildcard-without-resource',
        ['transports', 'http', 'host'],
        `HTTP host "${host}" is a wildcard address, so the bearer metadata needs auth.resource to name the server`,
        'set auth.resource to the public URL of the MCP endpoint, e.g. "https://mcp.example.com/mcp"',
      );
    }
    const origins = Array.isArray(http.allowedOrigins) ? http.allowedOrigins : [];
    origins.forEach((origin: unknown, i) => {
      if (typeof origin !== 'string') return;
      const canonical = originOf(origin);
      if (canonical === origin) return;
      ctx.report(
        'origin-malformed',
        ['transports', 'http', 'allowedOrigins', i],
        `allowed origin "${origin}" is not an origin (scheme://host[:port])`,
        canonical !== undefined ? `use "${canonical}"` : 'write it as a browser sends it, e.g. "http://localhost:6274"',
      );
    });
  }

  if (auth && authType !== 'none' && !http) {
    ctx.report(
      'auth-without-http',
      ['auth', 'type'],
      `auth.type "${authType}" has no effect without an HTTP transport`,
      'add transports.http, or set auth.type to "none" for a local stdio server',
    );
  }
  if (auth && (authType === 'oauth' || authType === 'bearer')) {
    // bearer has only the optional resource URL; oauth has all three.
    for (const key of authType === 'oauth' ? (['issuer', 'jwksUri', 'resource'] as const) : (['resource'] as const)) {
      const url = stringOr(auth[key]);
      if (url !== undefined && !isSecureUrl(url)) {
        ctx.report(
          'url-malformed',
          ['auth', key],
          `auth.${key} "${url}" is not an absolute https:// URL`,
          'use https://, or http:// only for a loopback host',
        );
      }
    }
  }
  checkToolScopes(ctx, auth);
}

/** `auth.grants` names declared scopes, and admits every tool (else no token could call it). */
function checkGrants(ctx: RuleContext, auth: Record<string, unknown> | undefined, declared: readonly string[]): void {
  const grants = auth && isRecord(auth.grants) ? auth.grants : undefined;
  if (grants === undefined) return;
  for (const scope of Object.keys(grants)) {
    if (declared.includes(scope)) continue;
    const guess = suggestClosest(scope, declared);
    ctx.report(
      'scope-unknown',
      ['auth', 'grants', scope],
      `auth.grants names scope "${scope}", which auth.scopes does not declare`,
      guess !== undefined ? `did you mean "${guess}"?` : 'declare it under auth.scopes',
    );
  }
  for (const [name, tool] of entriesOf(isRecord(ctx.data) ? ctx.data.tools : undefined)) {
    const hints = isRecord(tool) && isRecord(tool.annotations) ? tool.annotations : {};
    const readOnly = hints.readOnlyHint === true;
    const destructive = isEffectivelyDestructive(hints);
    const admitting = Object.entries(grants).filter(([scope]) => declared.includes(scope));
    if (admitting.some(([, grant]) => grantAdmits(grant as GrantModel['admits'], readOnly, destructive))) continue;
    const kind = readOnly ? 'read-only' : destructive ? 'destructive' : 'non-destructive';
    ctx.report(
      'scope-grant-missing',
      ['tools', name],
      `no scope of auth.grants admits tool "${name}" (${kind}), so no token could call it`,
      kind === 'destructive' ? 'grant a scope `all`' : 'grant a scope `nonDestructive` or `all`',
    );
  }
}

function checkToolScopes(ctx: RuleContext, auth: Record<string, unknown> | undefined): void {
  const declared = auth && isRecord(auth.scopes) ? Object.keys(auth.scopes) : [];
  checkGrants(ctx, auth, declared);
  for (const [name, tool] of entriesOf(isRecord(ctx.data) ? ctx.data.tools : undefined)) {
    const scopes = isRecord(tool) && Array.isArray(tool.scopes) ? tool.scopes : [];
    scopes.forEach((scope: unknown, i) => {
      if (typeof scope !== 'string' || declared.includes(scope)) return;
      const guess = suggestClosest(scope, declared);
      const hint = guess !== undefined ? `did you mean "${guess}"?` : `declare it under auth.scopes`;
      ctx.report(
        'scope-unknown',
        ['tools', name, 'scopes', i],
        `tool "${name}" requires scope "${scope}", which auth.scopes does not declare`,
        hint,
      );
    });
  }
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

function isSecureUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  } catch {
    return false;
  }
}

/** `ttl` and `ttlMs` given together, wherever a duration is allowed. */
export function checkDurations(ctx: RuleContext): void {
  if (!isRecord(ctx.data)) return;
  const places: (readonly (string | number)[])[] = [['cache']];
  for (const [name] of entriesOf(ctx.data.handles)) places.push(['handles', name]);
  for (const [name] of entriesOf(ctx.data.resources)) places.push(['resources', name, 'cache']);
  for (const path of places) {
    let node: unknown = ctx.data;
    for (const segment of path) node = isRecord(node) ? node[segment] : undefined;
    if (isRecord(node) && node.ttl !== undefined && node.ttlMs !== undefined) {
      ctx.report(
        'duration-conflict',
        [...path, 'ttlMs'],
        `both "ttl" and "ttlMs" are given`,
        'keep only one of them',
        'key',
      );
    }
  }
}
