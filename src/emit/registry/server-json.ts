import { environmentVariables } from '../../model/environment.js';
import type { ServerModel } from '../../model/types.js';
import { listedTools } from '../../model/search.js';
import { toolsetDigest } from '../../model/toolset.js';

/** The server.json schema this file follows; vendored under schema/registry/ with its source. */
export const serverJsonSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Where a publisher's own metadata goes in server.json. */
const publisherMeta = 'io.modelcontextprotocol.registry/publisher-provided';

/** A server.json `KeyValueInput`: an environment variable or a header a client must supply. */
export interface KeyValueInput {
  readonly name: string;
  readonly description: string;
  readonly isRequired: boolean;
  readonly isSecret: boolean;
  readonly format?: 'string' | 'number' | 'boolean';
  readonly default?: string;
  readonly value?: string;
  readonly variables?: Readonly<Record<string, { description: string; isRequired: boolean; isSecret: boolean }>>;
}

/**
 * The MCP registry record of the server, or null without a `registry` key.
 * Versions are exact pins (the server's version). The npm package is listed
 * once per transport the manifest serves (stdio as it starts; HTTP with
 * `--transport http`), each with the environment variables it reads there;
 * a hosted remote and an HTTP package declare the Authorization header when
 * the server checks one. The toolset digest lets a registry or a client check
 * a running server against what was admitted (`mcp-gen verify`).
 */
export function serverJson(model: ServerModel): Record<string, unknown> | null {
  const { registry } = model;
  if (registry === null) return null;
  const packages = registry.npm === null ? [] : npmPackages(model, registry.npm);
  const headers = authorizationHeaders(model);
  return {
    $schema: serverJsonSchemaUrl,
    name: registry.name,
    // validate requires a description of at most 100 characters whenever `registry` is set.
    description: model.server.description ?? '',
    version: model.server.version,
    ...(model.server.title !== null && model.server.title.length <= 100 ? { title: model.server.title } : {}),
    ...(registry.repository === null
      ? {}
      : { repository: { url: registry.repository, source: repositorySource(registry.repository) } }),
    ...(packages.length === 0 ? {} : { packages }),
    ...(registry.remote === null
      ? {}
      : { remotes: [{ type: 'streamable-http', url: registry.remote, ...(headers.length === 0 ? {} : { headers }) }] }),
    _meta: { [publisherMeta]: { tool: 'mcp-gen', toolsetDigest: toolsetDigest(listedTools(model)) } },
  };
}

function npmPackages(model: ServerModel, identifier: string): Record<string, unknown>[] {
  const pin = { registryType: 'npm', identifier, version: model.server.version };
  const packages: Record<string, unknown>[] = [];
  if (model.transports.stdio) {
    const env = packageVariables(model, 'stdio');
    packages.push({ ...pin, transport: { type: 'stdio' }, ...(env.length === 0 ? {} : { environmentVariables: env }) });
  }
  const { http } = model.transports;
  if (http !== null) {
    const env = packageVariables(model, 'http');
    const headers = authorizationHeaders(model);
    packages.push({
      ...pin,
      // The host the package listens on is the client's own machine when it runs the package.
      transport: {
        type: 'streamable-http',
        url: `http://127.0.0.1:${http.port}${http.path}`,
        ...(headers.length === 0 ? {} : { headers }),
      },
      packageArguments: [{ type: 'named', name: '--transport', value: 'http' }],
      ...(env.length === 0 ? {} : { environmentVariables: env }),
    });
  }
  return packages;
}

/**
 * Every environment variable the package reads when started over `transport`.
 * The one place server.json's variables come from: the runtime's own below,
 * and the manifest's `config:` variables are to be appended here.
 */
export function packageVariables(model: ServerModel, transport: 'stdio' | 'http'): KeyValueInput[] {
  // One list for README, .env.example, host snippets, DESIGN.md and this (model/environment.ts); a secret's
  // default is never written.
  const format = { string: 'string', url: 'string', integer: 'number', number: 'number', boolean: 'boolean' } as const;
  return environmentVariables(model)
    .filter((v) => transport === 'http' || !v.httpOnly)
    .map((v) => ({
      name: v.name,
      description: v.description,
      format: format[v.type],
      isRequired: v.required,
      isSecret: v.secret,
      ...(v.default === null ? {} : { default: v.default }),
    }));
}

/** The Authorization header a client sends when the server checks bearer tokens or OAuth access tokens over HTTP. */
function authorizationHeaders(model: ServerModel): KeyValueInput[] {
  if (model.auth.type === 'none' || model.transports.http === null) return [];
  const token = model.auth.type === 'oauth' ? `An OAuth access token issued by ${model.auth.issuer}` : 'A bearer token';
  return [
    {
      name: 'Authorization',
      description: `${token}, sent as "Bearer <token>" on every request`,
      isRequired: true,
      isSecret: true,
      value: 'Bearer {token}',
      variables: { token: { description: token, isRequired: true, isSecret: true } },
    },
  ];
}

/** `github` for github.com, `gitlab` for gitlab.com, else the host name. */
function repositorySource(url: string): string {
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  if (host === 'github.com') return 'github';
  if (host === 'gitlab.com') return 'gitlab';
  return host;
}
