/**
 * A `.env` file as `node --env-file` reads it (node:util's parseEnv is that parser), for `--env-file` of the
 * commands that start a server (cli/server-env.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as util from 'node:util';

/** The variables of the file at `file` (relative to `cwd`), or why it cannot give them. */
export function readEnvFile(file: string, cwd: string): Record<string, string> | string {
  const parseEnv = (util as { parseEnv?: (text: string) => NodeJS.Dict<string> }).parseEnv;
  if (parseEnv === undefined) return '--env-file needs Node.js 20.12 or later';
  let text: string;
  try {
    text = readFileSync(path.resolve(cwd, file), 'utf8');
  } catch {
    return `--env-file ${file} does not exist or cannot be read`;
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseEnv(text))) if (value !== undefined) env[key] = value;
  return env;
}
