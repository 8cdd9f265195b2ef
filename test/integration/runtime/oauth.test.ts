import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJwks } from '../../support/servers.js';
import {
  buildProject,
  connectClient,
  envelope,
  get,
  repoRoot,
  rpc,
  startHttpServer,
  type RunningServer,
} from './harness.js';

// OAuth (JWT access tokens verified with jose against a JWKS) on a generated server. The test is
// the authorization server: it serves its public key from 127.0.0.1 and signs tokens with jose.

const issuer = 'https://issuer.example.test';
const resource = 'https://vault.example.test/mcp';
const metadataUrl = 'https://vault.example.test/.well-known/oauth-protected-resource/mcp';
const dir = path.join(repoRoot, '.test-out', 'runtime-oauth');

const whoami = `import type { ToolHandler } from '../../generated/index.gen.js';

export const whoamiHandler: ToolHandler<'whoami'> = async (_input, ctx) =>
  \`\${ctx.principal.id} [\${ctx.principal.scopes.join(',')}]\`;
`;

let jwks: Server;
let server: RunningServer;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;

/**
 * A token from `key` (the issuer's by default) with sensible claims, each overridable (`sub` of any type,
 * which jose's setSubject would refuse), and the protected header's `typ` when given.
 */
async function token(claims: JWTPayload = {}, key: CryptoKey = signingKey, typ?: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'vault.read', sub: 'dana', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...(typ === undefined ? {} : { typ }) })
    .setIssuer((claims.iss as string | undefined) ?? issuer)
    .setAudience((claims.aud as string | undefined) ?? resource)
    .setIssuedAt(now - 60)
    .setExpirationTime(claims.exp ?? now + 300)
    .sign(key);
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair('RS256')).privateKey;
  const started = await startJwks(pair.publicKey);
  jwks = started.server;
  // The JWKS address is only known now, so the manifest is written with it and then generated.
  const fixture = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'runtime', 'oauth.yaml'), 'utf8');
  const manifest = path.join(repoRoot, '.test-out', 'runtime-oauth.yaml');
  writeFileSync(manifest, fixture.replace('jwksUri: JWKS_URI', `jwksUri: ${started.url}`));
  const entry = buildProject(manifest, 'runtime-oauth', { 'src/handlers/tools/whoami.ts': whoami });
  server = await startHttpServer(entry, { VAULT_HANDLE_KEY: 'vault-handle-key-0123456789abcdef-0123' });
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => jwks?.close(resolve));
});

describe('OAuth access tokens over HTTP', () => {
  it('serves a valid token through the SDK client: principal from sub, scopes from scope', async () => {
    const client = await connectClient(server.url, await token({ scope: 'vault.read extra' }), {
      answer: { action: 'decline' },
      seen: [],
    });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: 'dana [vault.read,extra]' }]);
  });

  it('answers no token 401 pointing at the metadata of the configured resource, served here without auth', async () => {
    const answer = await rpc(server.url, 'tools/list', { _meta: envelope() });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    const metadata = await get(new URL('/.well-known/oauth-protected-resource/mcp', server.url));
    expect(metadata.status).toBe(200);
    expect(metadata.body).toEqual({
      resource,
      authorization_servers: [issuer],
      scopes_supported: ['vault.read'],
      bearer_methods_supported: ['header'],
    });
  });

  const refused = (reason: string): string =>
    `Bearer error="invalid_token", error_description="${reason}", resource_metadata="${metadataUrl}"`;
  const invalid = refused('Invalid token');
  const cases: [string, () => Promise<string>, string][] = [
    ['a wrong audience', () => token({ aud: 'https://other.example.test/mcp' }), invalid],
    ['a wrong issuer', () => token({ iss: 'https://evil.example.test' }), invalid],
    ['an expired token', () => token({ exp: Math.floor(Date.now() / 1000) - 120 }), refused('Token has expired')],
    ['a bad signature (another key, same kid)', () => token({}, strangerKey), invalid],
    ['a token that is not a JWT', async () => 'not.a.jwt', invalid],
    // RFC 9068: the principal is a string; jose checks only that sub is there, so the runtime checks its type.
    [
      'a numeric sub (sub: 42)',
      () => token({ sub: 42 as unknown as string }),
      refused('The sub claim must be a non-empty string'),
    ],
    ['an empty sub', () => token({ sub: '' }), refused('The sub claim must be a non-empty string')],
    // RFC 9068 §4: a token whose typ declares another kind of token is not an access token, whatever it claims.
    [
      'an ID token (typ: id_token)',
      () => token({}, signingKey, 'id_token'),
      refused('Not an access token: typ must be at+jwt'),
    ],
    [
      'a logout token (typ: logout+jwt)',
      () => token({}, signingKey, 'logout+jwt'),
      refused('Not an access token: typ must be at+jwt'),
    ],
  ];
  for (const [name, make, challenge] of cases) {
    it(`answers ${name} 401 invalid_token`, async () => {
      const answer = await rpc(
        server.url,
        'tools/call',
        { name: 'whoami', arguments: {}, _meta: envelope() },
        await make(),
      );
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe(challenge);
    });
  }

  // at+jwt in either spelling and any case (media types are case-insensitive); no typ and the generic JWT are
  // accepted for the identity providers that type access tokens so (oauth.gen.ts says why).
  for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT', 'JWT', undefined]) {
    it(`accepts a valid access token with ${typ === undefined ? 'no typ' : `typ ${typ}`}`, async () => {
      const answer = await rpc(
        server.url,
        'tools/call',
        { name: 'whoami', arguments: {}, _meta: envelope() },
        await token({ sub: 'erin' }, signingKey, typ),
      );
      expect([answer.status, answer.body.result?.content]).toEqual([
        200,
        [{ type: 'text', text: 'erin [vault.read]' }],
      ]);
    });
  }

  it("answers a valid token without the tool's scope 403 insufficient_scope", async () => {
    const answer = await rpc(
      server.url,
      'tools/call',
      { name: 'whoami', arguments: {}, _meta: envelope() },
      await token({ scope: 'other' }),
    );
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="Insufficient ' +
        `scope", scope="vault.read", resource_metadata="${metadataUrl}"`,
    );
  });

  it('ships oauth.gen.ts and jose only in the OAuth project', () => {
    expect(existsSync(path.join(dir, 'src', 'generated', 'runtime', 'oauth.gen.ts'))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).dependencies).toEqual({
      '@modelcontextprotocol/server': '2.4.0',
      jose: '6.2.17',
    });
  });
});
