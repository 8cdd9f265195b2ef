import { spawnSync } from 'node:child_process';

/**
 * Runs `command` in `cwd` as a user's shell would, with npm's network chatter (audit, fund, update check) off, and
 * returns its exit code, stdout and stdout+stderr (for an assertion's message). `env` adds to this process's.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  options: { readonly timeout?: number; readonly env?: Readonly<Record<string, string>> } = {},
) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: options.timeout ?? 300_000,
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...options.env,
    },
  });
  return { code: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}
