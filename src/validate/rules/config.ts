import { envPrefix } from '../../model/naming.js';
import { entriesOf, isRecord, stringOr } from '../../util/guards.js';
import type { RuleContext } from '../context.js';

/** Whether `value` is a default the runtime could have read for a variable of `type` (config.gen.ts's rules). */
function fitsType(type: string, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'url':
      return typeof value === 'string' && URL.canParse(value);
    default:
      return typeof value === 'string';
  }
}

/** The variables the runtime reads itself, with what it reads them for; a config entry may not take one. */
function runtimeVariables(data: Record<string, unknown>): Map<string, string> {
  const server = isRecord(data.server) ? data.server : {};
  const prefix = envPrefix(stringOr(server.name) ?? '');
  const secrets = isRecord(data.secrets) ? data.secrets : {};
  const names = new Map<string, string>([
    [stringOr(secrets.handleKeyEnv) ?? `${prefix}_HANDLE_KEY`, 'the handle signing key'],
    [stringOr(secrets.requestStateKeyEnv) ?? `${prefix}_STATE_KEY`, 'the request-state signing key'],
  ]);
  const auth = isRecord(data.auth) ? stringOr(data.auth.tokensEnv) : undefined;
  if (auth !== undefined) names.set(auth, 'the bearer tokens (auth.tokensEnv)');
  const store = isRecord(data.store) ? stringOr(data.store.urlEnv) : undefined;
  if (store !== undefined) names.set(store, 'the Redis URL (store.urlEnv)');
  return names;
}

/**
 * `config`: defaults of the declared type, no default on a required variable nor on a secret (unless `allowDefault`),
 * names of its own.
 */
export function checkConfig(ctx: RuleContext): void {
  if (!isRecord(ctx.data)) return;
  const taken = runtimeVariables(ctx.data);
  for (const [name, entry] of entriesOf(ctx.data.config)) {
    if (!isRecord(entry)) continue;
    const owner = taken.get(name);
    if (owner !== undefined || name.startsWith('MCP_GEN_'))
      ctx.report(
        'config-name-taken',
        ['config', name],
        `config variable "${name}" is one the runtime reads itself: ${owner ?? 'MCP_GEN_ names are reserved'}`,
        'give it a name of its own; the README and .env.example already list the runtime variables',
      );
    if (!('default' in entry)) continue;
    const type = stringOr(entry.type) ?? 'string';
    const a = type === 'integer' ? 'an' : 'a';
    if (!fitsType(type, entry.default))
      ctx.report(
        'config-default-type',
        ['config', name, 'default'],
        `the default of "${name}" is ${JSON.stringify(entry.default)}, not ${a} ${type === 'url' ? 'URL' : type}`,
        type === 'url' ? 'write a full URL, e.g. "https://api.example.com"' : `give ${a} ${type} value, or change type`,
      );
    if (entry.required === true)
      ctx.report(
        'config-required-default',
        ['config', name, 'required'],
        `"${name}" is required and has a default, which would never be used`,
        'drop the default, or drop "required: true" (a variable with a default is optional)',
      );
    if (entry.secret === true && entry.allowDefault !== true)
      ctx.report(
        'config-secret-default',
        ['config', name, 'default'],
        `the secret "${name}" has a default, which is committed, printed in the docs and compiled into ` +
          'dist/server.mjs',
        'drop the default and set the value in the environment only, or add "allowDefault: true" to the variable ' +
          'to ship this default knowingly',
      );
  }
}
