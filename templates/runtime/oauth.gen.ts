/**
 * OAuth 2.1 resource server: access tokens are JWTs signed by the manifest's
 * issuer, verified against its published keys (JWKS). This is the only runtime
 * file that imports `jose`; mcp-gen emits it only for `auth.type: oauth`, and
 * start.gen.ts loads it with a dynamic import, so other projects never need jose.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import type { JwtVerifierFactory } from './auth.gen.js';

// jose errors that mean "this token is not acceptable" (401). Anything else (JWKS unreachable, timeouts)
// is a server-side failure: logged, and answered 500 rather than blaming the client's token.
const rejectedTokenCodes = new Set([
  errors.JWTExpired.code,
  errors.JWTClaimValidationFailed.code,
  errors.JWTInvalid.code,
  errors.JWSInvalid.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
]);

/**
 * The `typ` header values of an access token (RFC 9068 §4; the media type's `application/` prefix may be left out,
 * RFC 7515 §4.1.9, and media types are case-insensitive). A token without `typ` or with the generic `JWT` is
 * accepted too: Microsoft Entra ID and Keycloak, among others, type their access tokens so. Their ID tokens look
 * the same, and what keeps those out is `aud`, which names a client id there, not this resource. Any other type
 * (`id_token`, `logout+jwt`, ...) declares a token that is not an access token.
 */
const accessTokenTypes = new Set([undefined, 'jwt', 'at+jwt', 'application/at+jwt']);

/**
 * A verifier for JWT access tokens: signature (keys from `jwksUri`, cached and
 * refreshed by jose), `iss` = issuer, `aud` contains resource, `exp` required
 * and enforced, `typ` an access token's (above), `sub` a non-empty string (it
 * becomes the principal). Scopes come from the space-separated `scope` claim.
 * A refused token's reason is the challenge's error_description; it never
 * repeats what the token says, which would put the client's text in a header.
 */
export const createJwtVerifier: JwtVerifierFactory = (settings, log) => {
  // Built once per process: jose caches the key set and refetches it when an unknown `kid` shows up.
  const keys = createRemoteJWKSet(new URL(settings.jwksUri));
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      try {
        const { payload, protectedHeader } = await jwtVerify(token, keys, {
          issuer: settings.issuer,
          audience: settings.resource,
          requiredClaims: ['exp', 'sub'],
        });
        const typ = protectedHeader.typ;
        if (!accessTokenTypes.has(typeof typ === 'string' ? typ.toLowerCase() : typ))
          throw new OAuthError(OAuthErrorCode.InvalidToken, 'Not an access token: typ must be at+jwt');
        // jose checks that `sub` is present, not its type: `sub: 42` would become a principal id typed string.
        const principal: unknown = payload.sub;
        if (typeof principal !== 'string' || principal === '')
          throw new OAuthError(OAuthErrorCode.InvalidToken, 'The sub claim must be a non-empty string');
        const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter((s) => s !== '') : [];
        return {
          token,
          clientId: principal,
          scopes,
          expiresAt: payload.exp,
          resource: new URL(settings.resource),
          extra: { principal },
        };
      } catch (error) {
        if (error instanceof OAuthError) throw error;
        if (error instanceof errors.JOSEError && rejectedTokenCodes.has(error.code)) {
          throw new OAuthError(
            OAuthErrorCode.InvalidToken,
            error instanceof errors.JWTExpired ? 'Token has expired' : 'Invalid token',
          );
        }
        log(`oauth: could not verify a token: ${error instanceof Error ? error.message : String(error)}`);
        throw new OAuthError(OAuthErrorCode.ServerError, 'Token verification is unavailable');
      }
    },
  };
};
