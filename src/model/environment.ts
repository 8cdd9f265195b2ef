/**
 * Every environment variable a generated server reads, decided once here: the manifest's `config` variables and
 * the runtime's own (signing keys, bearer tokens, the Redis URL). The README's table, `.env.example`, the host
 * snippets, server.json and DESIGN.md all list this one list, so they cannot disagree.
 */
import { usesRedis } from './store.js';
import type { ConfigType, ServerModel } from './types.js';

/** One variable as the documents show it; `origin` says who reads it (the user's `setup`, or the runtime). */
export interface EnvironmentVariable {
  readonly name: string;
  readonly description: string;
  readonly type: ConfigType;
  readonly required: boolean;
  /** The default as text (never shown for a secret: validate warns about one), or null. */
  readonly default: string | null;
  readonly secret: boolean;
  readonly origin: 'config' | 'runtime';
  /** Read only by `--transport http` (the bearer tokens): not part of the stdio package's configuration. */
  readonly httpOnly: boolean;
}

const runtime = (name: string, description: string, required: boolean, httpOnly = false): EnvironmentVariable => ({
  name,
  description,
  type: 'string',
  required,
  default: null,
  secret: true,
  origin: 'runtime',
  httpOnly,
});

/** The manifest's `config` variables by name, then the runtime's own in a fixed order. */
export function environmentVariables(model: ServerModel): EnvironmentVariable[] {
  const config = model.config.map(
    (v): EnvironmentVariable => ({
      name: v.name,
      description: v.description,
      type: v.type,
      required: v.required,
      default: v.default === null || v.secret ? null : String(v.default),
      secret: v.secret,
      origin: 'config',
      httpOnly: false,
    }),
  );
  const own: EnvironmentVariable[] = [];
  // Without the keys a loopback or stdio server signs with an ephemeral key, so neither is required to start.
  if (model.handles.length > 0)
    own.push(
      runtime(
        model.secrets.handleKeyEnv,
        'Signs state handles (at least 32 bytes; the same on every instance). ' +
          'Without it a loopback or stdio server uses an ephemeral key.',
        false,
      ),
    );
  if (model.tools.some((t) => t.approval === 'confirm'))
    own.push(
      runtime(
        model.secrets.requestStateKeyEnv,
        'Signs the approval state of destructive tools (at least 32 bytes; the same on every instance).',
        false,
      ),
    );
  if (model.auth.type === 'bearer')
    own.push(
      runtime(
        model.auth.tokensEnv,
        'Bearer tokens of the callers over HTTP: `token=principal:scope,scope;token2=...`.',
        true,
        true,
      ),
    );
  if (usesRedis(model) && model.store.type === 'redis')
    own.push(
      runtime(
        model.store.urlEnv,
        'The Redis URL of the state store (used approvals, idempotency keys), the same for every instance.',
        true,
      ),
    );
  return [...config, ...own];
}
