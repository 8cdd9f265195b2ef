/**
 * The secret side of each upstream credential (a bearer token, an API key's value, a Basic password, an OAuth 2
 * client secret) is held by a config variable; one not marked `secret: true` is treated as an ordinary setting
 * everywhere but in what a bound tool sends: a default may be committed and printed, the README and the MCPB
 * manifest show it as plain, and start-up logs do not hide it.
 */
import type { Finding } from '../diagnostics/index.js';
import type { UpstreamCredentialModel } from '../model/bindings.js';
import type { ServerModel } from '../model/types.js';
import { finding } from './lint-input.js';

/** The variable holding the secret part of `credential`, and which part it is; null for none. */
function secretPart(credential: UpstreamCredentialModel): { readonly variable: string; readonly part: string } | null {
  if (credential.type === 'bearer') return { variable: credential.token, part: 'token' };
  if (credential.type === 'apiKey') return { variable: credential.value, part: 'value' };
  if (credential.type === 'basic') return { variable: credential.password, part: 'password' };
  if (credential.type === 'oauth2') return { variable: credential.clientSecret, part: 'clientSecret' };
  return null;
}

/** One finding per config variable that holds a credential's secret part without `secret: true`. */
export function lintCredentials(model: ServerModel): Finding[] {
  if (model.upstream === null) return [];
  const { credential, credentials } = model.upstream;
  const named = [['credential', credential] as const, ...Object.entries(credentials)];
  const held = new Map<string, string>();
  for (const [name, c] of named) {
    const secret = secretPart(c);
    const where = name === 'credential' ? 'upstream.credential' : `upstream.credentials.${name}`;
    if (secret !== null && !held.has(secret.variable)) held.set(secret.variable, `${where}.${secret.part}`);
  }
  return model.config.flatMap((variable) => {
    const holder = held.get(variable.name);
    if (holder === undefined || variable.secret) return [];
    return [
      finding(
        'lint-credential-not-secret',
        variable.pointer,
        `config variable "${variable.name}" holds ${holder} but is not marked secret: true`,
        'add "secret: true" (and "required: false" if the server must start without it)',
      ),
    ];
  });
}
