/** The HTTP bindings: a tool's `http:` and the server's `upstream:`, with their defaults applied. */
import type { Manifest, ManifestTool } from '../model/manifest.gen.js';
import type { ArgumentSpec } from '../model/bindings.js';
import type { HttpBindingModel, UpstreamCredentialModel, UpstreamModel } from '../model/types.js';
import { compareText, sortBy } from '../util/compare.js';

type ManifestToolHttp = NonNullable<ManifestTool['http']>;
type ManifestUpstream = NonNullable<Manifest['upstream']>;

/** A tool's `http:`; null without one. */
export function normalizeBinding(http: ManifestToolHttp | undefined): HttpBindingModel | null {
  if (http === undefined) return null;
  return {
    method: http.method,
    path: http.path,
    baseUrl: http.baseUrl ?? null,
    args: sortBy(
      Object.entries(http.args ?? {}).map(([name, location]) =>
        typeof location === 'string' ? { name, in: location } : argument(name, location),
      ),
      (a) => a.name,
    ),
    body: http.body ?? 'application/json',
    accept: http.accept ?? 'application/json',
    encoding: Object.fromEntries(
      Object.entries(http.encoding ?? {})
        .sort(([a], [b]) => compareText(a, b))
        .map(([name, e]) => [name, defined({ ...e })]),
    ),
    result: http.result ?? 'body',
    errorMessage: http.errorMessage ?? null,
    outputCheck: http.outputCheck ?? 'warn',
    security: http.security?.map((names) => [...names]) ?? null,
  };
}

type ManifestArgument = Exclude<NonNullable<ManifestToolHttp['args']>[string], string>;

/** An argument given as an object: its location and only the serialization keys it sets, in a fixed order. */
function argument(name: string, a: ManifestArgument): ArgumentSpec {
  return defined({
    name,
    in: a.in,
    wire: a.name,
    style: a.style,
    explode: a.explode,
    allowReserved: a.allowReserved,
    content: a.content,
  }) as ArgumentSpec;
}

/** `value` without its undefined members. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The server's `upstream:`; null without one. Validation has checked that each type names its variables. */
export function normalizeUpstream(upstream: ManifestUpstream | undefined): UpstreamModel | null {
  if (upstream === undefined) return null;
  return {
    baseUrl: upstream.baseUrl,
    credential: normalizeCredential(upstream.credential),
    credentials: Object.fromEntries(
      Object.entries(upstream.credentials ?? {})
        .sort(([a], [b]) => compareText(a, b))
        .map(([name, c]) => [name, normalizeCredential(c)]),
    ),
  };
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
