/** The HTTP bindings: a tool's `http:` and the server's `upstream:`, with their defaults applied. */
import type { Manifest, ManifestTool } from '../model/manifest.gen.js';
import type { HttpBindingModel, UpstreamCredentialModel, UpstreamModel } from '../model/types.js';
import { sortBy } from '../util/compare.js';

type ManifestToolHttp = NonNullable<ManifestTool['http']>;
type ManifestUpstream = NonNullable<Manifest['upstream']>;

/** A tool's `http:`; null without one. */
export function normalizeBinding(http: ManifestToolHttp | undefined): HttpBindingModel | null {
  if (http === undefined) return null;
  return {
    method: http.method,
    path: http.path,
    args: sortBy(
      Object.entries(http.args ?? {}).map(([name, location]) => ({ name, in: location })),
      (a) => a.name,
    ),
    body: http.body ?? 'application/json',
    result: http.result ?? 'body',
    errorMessage: http.errorMessage ?? null,
  };
}

/** The server's `upstream:`; null without one. Validation has checked that each type names its variables. */
export function normalizeUpstream(upstream: ManifestUpstream | undefined): UpstreamModel | null {
  if (upstream === undefined) return null;
  return { baseUrl: upstream.baseUrl, credential: normalizeCredential(upstream.credential) };
}

function normalizeCredential(c: ManifestUpstream['credential']): UpstreamCredentialModel {
  if (c === undefined) return { type: 'none' };
  switch (c.type) {
    case 'bearer':
      return { type: 'bearer', token: c.token ?? '' };
    case 'apiKey':
      return { type: 'apiKey', in: c.in ?? 'header', name: c.name ?? '', value: c.value ?? '' };
    case 'basic':
      return { type: 'basic', username: c.username ?? '', password: c.password ?? '' };
    case 'oauth2':
      return {
        type: 'oauth2',
        tokenUrl: c.tokenUrl ?? '',
        clientId: c.clientId ?? '',
        clientSecret: c.clientSecret ?? '',
        scopes: [...(c.scopes ?? [])],
      };
  }
}
