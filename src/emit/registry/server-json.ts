import { environmentVariables } from '../../model/environment.js';
import type { ServerModel } from '../../model/types.js';
import { toolsetDigest, wireTools } from '../../model/toolset.js';

/** The server.json schema this file follows; vendored under schema/registry/ with its source. */
export const serverJsonSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json';

/** Where a publisher's own metadata goes in server.json. */
const publisherMeta = 'io.modelcontextprotocol.registry/publisher-provided';

/**
 * The MCP registry record of the server, or null without a `registry` key.
 * Versions are exact pins (the server's version); the npm package runs over
 * stdio, so it is listed only when the manifest serves stdio. The toolset
 * digest lets a registry or a client check a running server against what was
 * admitted (`mcp-gen verify`).
 */
export function serverJson(model: ServerModel): Record<string, unknown> | null {
  const { registry } = model;
  if (registry === null) return null;
  const packages =
    registry.npm !== null && model.transports.stdio
      ? [
          {
            registryType: 'npm',
            identifier: registry.npm,
            version: model.server.version,
            transport: { type: 'stdio' },
            ...packageEnvironment(model),
          },
        ]
      : [];
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
    ...(registry.remote === null ? {} : { remotes: [{ type: 'streamable-http', url: registry.remote }] }),
    _meta: { [publisherMeta]: { tool: 'mcp-gen', toolsetDigest: toolsetDigest(wireTools(model)) } },
  };
}

/**
 * The variables a client sets when it runs the stdio package (the registry's `environmentVariables`), from the
 * same list as the README and `.env.example`; a secret's default is never written.
 */
function packageEnvironment(model: ServerModel): { environmentVariables?: Record<string, unknown>[] } {
  const variables = environmentVariables(model).filter((v) => !v.httpOnly);
  if (variables.length === 0) return {};
  const format = { string: 'string', url: 'string', integer: 'number', number: 'number', boolean: 'boolean' };
  return {
    environmentVariables: variables.map((v) => ({
      name: v.name,
      description: v.description,
      format: format[v.type],
      isRequired: v.required,
      isSecret: v.secret,
      ...(v.default === null ? {} : { default: v.default }),
    })),
  };
}

/** `github` for github.com, `gitlab` for gitlab.com, else the host name. */
function repositorySource(url: string): string {
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  if (host === 'github.com') return 'github';
  if (host === 'gitlab.com') return 'gitlab';
  return host;
}
