/**
 * The environment `verify -- <command>` and `import server -- <command>` start a server with: the caller's, as a
 * host's is, plus `--env-file PATH` (read as `node --env-file` reads it), plus each `--env KEY=VALUE`, later ones
 * winning. A server whose manifest requires a `config` variable then starts as it does under a host.
 */
import { readEnvFile } from '../load/index.js';

/** The flags that add to the caller's environment. */
export interface ServerEnvFlags {
  readonly env: readonly string[];
  readonly envFile?: string;
}

export const noServerEnv: ServerEnvFlags = { env: [] };

/** Whether any flag adds to the environment (they apply to a command, not to a URL). */
export const addsToEnv = (flags: ServerEnvFlags) => flags.env.length > 0 || flags.envFile !== undefined;

/** The child's whole environment, or why the flags cannot give one. */
export function serverEnvironment(
  base: NodeJS.ProcessEnv,
  flags: ServerEnvFlags,
  cwd: string,
): Record<string, string> | string {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  if (flags.envFile !== undefined) {
    const file = readEnvFile(flags.envFile, cwd);
    if (typeof file === 'string') return file;
    Object.assign(env, file);
  }
  for (const pair of flags.env) {
    const equals = pair.indexOf('=');
    if (equals <= 0) return `--env must look like KEY=VALUE, got "${pair}"`;
    env[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return env;
}
