/**
 * The console of `mcp-gen dev`: one state per build (the review and what the server lists, read once and kept until
 * the next build), the server's log lines for the requests that saw them, and the page's requests made through the
 * official client with the token a bearer-auth server needs (the first of its tokens variable, kept in this process:
 * the page never sees it).
 */
import type { ServerModel } from '../../model/types.js';
import { loadConsoleAssets } from '../../load/index.js';
import type { SessionTarget } from '../session.js';
import { ConsoleCalls, type LogTap } from './calls.js';
import { startConsole } from './server.js';
import { readConsoleState, type ConsoleState } from './state.js';

export interface DevConsoleOptions {
  readonly port: number;
  readonly manifest: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface DevConsole {
  readonly url: string;
  /** A build finished: the server at `serverUrl` answers (or, with errors, the last good one still does). */
  readonly built: (serverUrl: string, typeErrors: readonly string[]) => void;
  /** One line the server wrote on stderr. */
  readonly log: (line: string) => void;
  readonly close: () => Promise<void>;
}

const keptLines = 2000;

/** The first token of a bearer-auth server's tokens variable (`token=principal:scopes;...`), if it is set. */
function bearerToken(model: ServerModel | null, env: DevConsoleOptions['env']): string | null {
  if (model?.auth.type !== 'bearer') return null;
  const first = (env[model.auth.tokensEnv] ?? '').split(';')[0] ?? '';
  const token = first.slice(0, first.indexOf('=')).trim();
  return token === '' ? null : token;
}

export async function startDevConsole(options: DevConsoleOptions): Promise<DevConsole> {
  let serverUrl = '';
  let typeErrors: readonly string[] = [];
  let version = 0;
  let current: { version: number; state: Promise<ConsoleState> } | null = null;
  let token: string | null = null;
  const lines: string[] = [];
  let dropped = 0;
  const tap: LogTap = {
    mark: () => dropped + lines.length,
    since: (mark) => lines.slice(Math.max(0, mark - dropped)),
  };
  const target = (): SessionTarget & { kind: 'url' } => ({
    kind: 'url',
    url: serverUrl,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
  const state = (): Promise<ConsoleState> => {
    if (current?.version !== version) {
      const read = readConsoleState(options.manifest, options.cwd, target, { version, typeErrors }, (model) => {
        token = bearerToken(model, options.env);
      });
      current = { version, state: read };
    }
    return current.state;
  };
  const running = await startConsole({
    port: options.port,
    assets: loadConsoleAssets(),
    calls: new ConsoleCalls(target, tap),
    state,
    serverUrl: () => serverUrl,
    bearer: () => token !== null,
  });
  return {
    url: running.url,
    built: (url, errors) => {
      serverUrl = url;
      typeErrors = errors;
      version += 1;
      running.changed(version);
    },
    log: (line) => {
      lines.push(line);
      if (lines.length > keptLines) {
        lines.shift();
        dropped += 1;
      }
    },
    close: running.close,
  };
}
