/**
 * The entry `mcp-gen install` writes for the project's server, and the file
 * with it merged in: every other key of the file kept in its order, the
 * file's indentation kept, the entry (and, for VS Code, its inputs) replaced
 * or added. A secret is written only when the user named it with `--env`;
 * otherwise the host's own way of asking for it (hosts.ts) or a placeholder.
 */
import { placeholder } from '../emit/shared/environment.js';
import type { EnvironmentVariable } from '../model/environment.js';
import { isRecord } from '../util/guards.js';
import type { Host } from './hosts.js';

/** A problem with what was asked; the message is for the user. */
export class InstallError extends Error {}

/** A VS Code `promptString` input. */
export interface HostInput {
  readonly type: 'promptString';
  readonly id: string;
  readonly description: string;
  readonly password: true;
}

/** The entry and what the user must still do. */
export interface InstallEntry {
  readonly name: string;
  readonly entry: Record<string, unknown>;
  readonly inputs: readonly HostInput[];
  /** Variables written as placeholders: the user sets them by hand. */
  readonly placeholders: readonly string[];
}

/**
 * The server's entry: `node <entry>` and the environment. `values` are the
 * values the user gave (`--env` or answers); a variable goes in when it has a
 * value, or when it is a required secret (as the host's reference or a placeholder).
 */
export function installEntry(
  host: Host,
  server: { readonly name: string; readonly entry: string },
  variables: readonly EnvironmentVariable[],
  values: Readonly<Record<string, string>>,
): InstallEntry {
  const env: Record<string, string> = {};
  const inputs: HostInput[] = [];
  const placeholders: string[] = [];
  for (const v of variables) {
    if (v.httpOnly) continue;
    const given = values[v.name];
    if (given !== undefined) env[v.name] = given;
    else if (v.secret && v.required) {
      if (host.secrets === 'input') {
        env[v.name] = `\${input:${v.name}}`;
        inputs.push({ type: 'promptString', id: v.name, description: v.description, password: true });
      } else if (host.secrets === 'placeholder') {
        env[v.name] = placeholder(v);
        placeholders.push(v.name);
      } else env[v.name] = host.secrets.expand(v.name);
    }
  }
  const entry: Record<string, unknown> = {
    ...(host.typed ? { type: 'stdio' } : {}),
    command: 'node',
    args: [server.entry],
    ...(Object.keys(env).length === 0 ? {} : { env }),
  };
  return { name: server.name, entry, inputs, placeholders };
}

/** The indentation of a JSON text: its first indented line's, else two spaces. */
function indentOf(text: string): string | number {
  const match = /\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? 2;
}

/** `text` (the file, or null when there is none) with the entry merged in. */
export function mergeEntry(host: Host, text: string | null, install: InstallEntry, file: string): string {
  let data: Record<string, unknown> = {};
  if (text !== null && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new InstallError(
        `${file} is not JSON (${(error as Error).message}); fix it or pass --config-path, nothing was changed`,
      );
    }
    if (!isRecord(parsed)) throw new InstallError(`${file} does not hold a JSON object; nothing was changed`);
    data = parsed;
  }
  const servers = data[host.serversKey] ?? {};
  if (!isRecord(servers)) throw new InstallError(`${file}: "${host.serversKey}" is not an object; nothing was changed`);
  const merged: Record<string, unknown> = { ...data, [host.serversKey]: { ...servers, [install.name]: install.entry } };
  if (install.inputs.length > 0) {
    const existing = Array.isArray(data.inputs) ? data.inputs : [];
    const ids = new Set(install.inputs.map((i) => i.id));
    const kept = existing.filter((i) => !(isRecord(i) && typeof i.id === 'string' && ids.has(i.id)));
    // Keys added to a new file go in the order the host's documentation shows: inputs, then servers.
    const inputs = [...kept, ...install.inputs];
    if (!('inputs' in data)) return serialize({ inputs, ...merged }, text);
    merged.inputs = inputs;
  }
  return serialize(merged, text);
}

function serialize(data: unknown, text: string | null): string {
  const indent = text === null ? 2 : indentOf(text);
  const eol = text?.includes('\r\n') ? '\r\n' : '\n';
  return `${JSON.stringify(data, null, indent).replaceAll('\n', eol)}${eol}`;
}

/** What `--print` shows: the entry (and inputs) in the shape of the host's file. */
export function printedEntry(host: Host, install: InstallEntry): string {
  const servers = { [host.serversKey]: { [install.name]: install.entry } };
  return serialize(install.inputs.length > 0 ? { inputs: install.inputs, ...servers } : servers, null);
}

/** `--env KEY=VALUE` pairs, each naming a variable the server reads. */
export function envValues(pairs: readonly string[], variables: readonly EnvironmentVariable[]): Record<string, string> {
  const names = variables.filter((v) => !v.httpOnly).map((v) => v.name);
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new InstallError(`--env ${JSON.stringify(pair.split('=')[0])}: expected KEY=VALUE`);
    const key = pair.slice(0, at);
    if (!names.includes(key))
      throw new InstallError(
        `--env ${key}: the server reads no such variable (it reads: ${names.join(', ') || 'none'})`,
      );
    values[key] = pair.slice(at + 1);
  }
  return values;
}
