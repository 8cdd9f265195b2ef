/**
 * Signing keys for state handles and approval state. Keys come from the
 * environment variables the registry names. A missing or short key refuses to
 * start, except where only this machine can connect (stdio, loopback HTTP):
 * there an ephemeral key is generated, with a warning, so a fresh project runs.
 */
import { randomBytes } from 'node:crypto';
import { StartupError } from './handler.gen.js';

/** The key in `env[name]` (at least 32 bytes), or an ephemeral one where allowed. */
export function loadKey(
  name: string,
  env: NodeJS.ProcessEnv,
  allowEphemeral: boolean,
  warn: (message: string) => void,
): Buffer {
  const value = env[name];
  const key = value === undefined ? undefined : Buffer.from(value, 'utf8');
  if (key !== undefined && key.length >= 32) return key;
  const problem = key === undefined ? `${name} is not set` : `${name} is shorter than 32 bytes`;
  if (!allowEphemeral) {
    throw new StartupError(
      `${problem}; set it to a random secret of at least 32 bytes (e.g. \`openssl rand -hex 32\`) and share it ` +
        `between all instances`,
    );
  }
  warn(
    `warning: ${problem}; using an ephemeral key, so handles and approvals do not survive a restart or work across ` +
      `instances`,
  );
  return randomBytes(32);
}
