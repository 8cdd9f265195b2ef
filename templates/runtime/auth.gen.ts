/**
 * Authorization on Streamable HTTP: every request carries its own bearer token
 * (the protocol is stateless, nothing is remembered between requests), which a
 * verifier turns into the caller's principal and scopes. A request without a
 * valid token gets 401 with a `WWW-Authenticate` challenge that points at the
 * RFC 9728 protected-resource metadata, which is served here without auth.
 * Per-tool scopes are checked by the SDK (`scopeChallenge`, set in register.gen.ts),
 * which answers 403 insufficient_scope. Tokens are never logged or handed to
 * handlers; handlers see only the principal id and scopes.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  verifyBearerToken,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { StartupError } from './handler.gen.js';
import type { HttpAuth, HttpAuthFactory } from './http.gen.js';
import type { Lazy } from './startup.gen.js';

/** How the metadata document describes this server. */
export interface ResourceOptions {
  /** The MCP endpoint path, e.g. `/mcp`. */
  readonly path: string;
  /** The configured public URL of the endpoint, or null (bearer without one): then it is where the server listens. */
  readonly resource: string | null;
  /** Authorization servers to advertise; empty for static bearer tokens, which have none. */
  readonly authorizationServers: readonly string[];
  readonly scopes: readonly string[];
}

/** The manifest's OAuth settings. */
export interface OAuthSettings {
  readonly issuer: string;
  /** Where the issuer publishes its signing keys. */
  readonly jwksUri: string;
  /** This server's resource URL; a token must name it in `aud` (RFC 8707). */
  readonly resource: string;
}

/**
 * The type of `createJwtVerifier` in oauth.gen.ts. It is declared here because
 * oauth.gen.ts exists only in OAuth projects, while this module, which loads
 * it, must type-check in bearer projects too.
 */
export type JwtVerifierFactory = (settings: OAuthSettings, log: (message: string) => void) => OAuthTokenVerifier;

declare module './start.gen.js' {
  interface RuntimeModules {
    /** oauth.gen.ts (and with it jose), with OAuth authorization. */
    readonly oauth?: Lazy<{ readonly createJwtVerifier: JwtVerifierFactory }>;
  }
}

/** One configured static token. */
export interface BearerEntry {
  readonly digest: Buffer;
  readonly principal: string;
  readonly scopes: readonly string[];
}

const minTokenLength = 16;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Parses the bearer token list from the environment variable `name`:
 *
 *     token=principal:scope1,scope2;token2=principal2:scope3
 *
 * Entries are separated by `;`. A token runs up to the last `=` of its entry
 * (so base64 padding is fine) and must not contain `;`; the principal must not
 * contain `:`, `=` or `;`; scopes are comma-separated and may be empty
 * (`token=ci-bot:`). Tokens shorter than 16 characters are refused, being
 * guessable. Only SHA-256 digests of the tokens are kept.
 */
export function parseBearerTokens(value: string | undefined, name: string): BearerEntry[] {
  if (value === undefined || value.trim() === '')
    throw new StartupError(`${name} is not set; set it to token=principal:scope1,scope2;token2=principal2:scope`);
  const entries: BearerEntry[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of value.split(';').entries()) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.lastIndexOf('=');
    const colon = entry.indexOf(':', eq + 1);
    const token = entry.slice(0, Math.max(eq, 0));
    const principal = colon < 0 ? '' : entry.slice(eq + 1, colon).trim();
    if (eq <= 0 || colon < 0 || principal === '')
      throw new StartupError(`${name}: entry ${index + 1} is not token=principal:scopes`);
    if (token.length < minTokenLength)
      throw new StartupError(`${name}: the token of entry ${index + 1} is shorter than ${minTokenLength} characters`);
    if (seen.has(token)) throw new StartupError(`${name}: entry ${index + 1} repeats a token`);
    seen.add(token);
    const scopes = entry
      .slice(colon + 1)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    entries.push({ digest: sha256(token), principal, scopes });
  }
  if (entries.length === 0) throw new StartupError(`${name} holds no tokens`);
  return entries;
}

/**
 * Verifies static tokens in constant time: the SHA-256 of the token is compared with every entry, with no early exit.
 */
export function staticTokenVerifier(entries: readonly BearerEntry[]): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const digest = sha256(token);
      let match: BearerEntry | undefined;
      for (const entry of entries) {
        if (timingSafeEqual(entry.digest, digest) && match === undefined) match = entry;
      }
      if (match === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Invalid token');
      // Static tokens do not expire, but the SDK's bearer check requires an expiry; this one covers the request.
      return {
        token,
        clientId: match.principal,
        scopes: [...match.scopes],
        expiresAt: Math.floor(Date.now() / 1000) + 60,
        extra: { principal: match.principal },
      };
    },
  };
}

function metadataPathOf(path: string, resource: string | null): string {
  return new URL(getOAuthProtectedResourceMetadataUrl(new URL(resource ?? `http://localhost${path}`))).pathname;
}

/** Protects the MCP endpoint with `verifier`, advertising the metadata that `options` describe. */
export function createHttpAuth(
  verifier: OAuthTokenVerifier,
  options: ResourceOptions,
  log: (message: string) => void,
): HttpAuth {
  const metadataPath = metadataPathOf(options.path, options.resource);
  // Public URLs, which clients follow and may cache, come from the configuration or the listening address (see
  // HttpAuth), never from a request's Host or X-Forwarded-* headers.
  const resourceFor = (origin: string): string => options.resource ?? `${origin}${options.path}`;
  const metadataUrlFor = (origin: string): string => getOAuthProtectedResourceMetadataUrl(new URL(resourceFor(origin)));

  return {
    metadataPath,
    metadata(origin) {
      return {
        resource: resourceFor(origin),
        // RFC 9728 makes this optional; static bearer tokens come from no authorization server, so none is named.
        ...(options.authorizationServers.length === 0
          ? {}
          : { authorization_servers: [...options.authorizationServers] }),
        scopes_supported: [...options.scopes],
        bearer_methods_supported: ['header'],
      };
    },
    async authenticate(req, origin) {
      const resourceMetadataUrl = metadataUrlFor(origin);
      const header = req.headers.authorization;
      if (header === undefined || header.trim() === '') {
        // RFC 6750 §3.1: a request with no credentials gets a challenge without an error code.
        const body = new OAuthError(OAuthErrorCode.InvalidToken, 'Missing Authorization header').toResponseObject();
        return {
          response: Response.json(body, {
            status: 401,
            headers: { 'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"` },
          }),
        };
      }
      try {
        return { authInfo: await verifyBearerToken(header, { verifier, resourceMetadataUrl }) };
      } catch (error) {
        if (!(error instanceof OAuthError))
          log(`auth: token verification failed: ${error instanceof Error ? error.message : String(error)}`);
        return { response: bearerAuthChallengeResponse(error, { resourceMetadataUrl }) };
      }
    },
  };
}

/** The HTTP authorization the manifest asks for; oauth.gen.ts (and with it jose) is imported only for OAuth. */
export const httpAuth: HttpAuthFactory = async ({ registry, modules, environment, log }, path) => {
  const { auth } = registry;
  const scopes = auth.scopes.map((scope) => scope.name);
  if (auth.type === 'bearer') {
    const verifier = staticTokenVerifier(parseBearerTokens(environment[auth.tokensEnv], auth.tokensEnv));
    return createHttpAuth(verifier, { path, resource: auth.resource, authorizationServers: [], scopes }, log);
  }
  if (auth.type === 'none' || modules.oauth === undefined)
    throw new StartupError('this server declares no OAuth authorization');
  const { createJwtVerifier } = await modules.oauth();
  const verifier = createJwtVerifier({ issuer: auth.issuer, jwksUri: auth.jwksUri, resource: auth.resource }, log);
  return createHttpAuth(verifier, { path, resource: auth.resource, authorizationServers: [auth.issuer], scopes }, log);
};
