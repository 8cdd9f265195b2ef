/**
 * The host configuration a generated README shows: the `mcpServers` JSON that
 * desktop and IDE hosts read, for stdio and for HTTP, and how to open the
 * server in MCP Inspector. Paths are placeholders: the README is the same
 * bytes on every machine.
 */
import { environmentVariables } from '../../model/environment.js';
import type { ServerModel } from '../../model/types.js';
import { placeholder } from '../shared/environment.js';
import { shellWord } from '../../util/shell-word.js';

/** The MCP Inspector release the README names, and the Node it needs. */
export const inspectorPin = { version: '2.12.0', node: '22.19' } as const;

/**
 * Environment variables a host must pass to the server process: the runtime's and the required `config` ones
 * (optional ones are in the README's table), each with a placeholder; never a value.
 */
function hostEnv(model: ServerModel, transport: 'stdio' | 'http'): Record<string, string> {
  const env: Record<string, string> = {};
  for (const v of environmentVariables(model)) {
    if ((v.httpOnly && transport !== 'http') || (v.origin === 'config' && !v.required)) continue;
    env[v.name] = placeholder(v);
  }
  return env;
}

/** The view of the README's "Connect it to a host" section. */
export function hostsView(model: ServerModel) {
  const name = model.server.name;
  const env = hostEnv(model, 'stdio');
  const stdio = {
    mcpServers: {
      [name]: {
        command: '/absolute/path/to/node',
        args: [`/absolute/path/to/${name}/dist/server.mjs`],
        ...(Object.keys(env).length === 0 ? {} : { env }),
      },
    },
  };
  const http = model.transports.http;
  const url = http === null ? '' : `http://${http.host}:${http.port}${http.path}`;
  const authorization =
    model.auth.type === 'none'
      ? {}
      : {
          headers: {
            Authorization:
              model.auth.type === 'bearer' ? 'Bearer <token>' : 'Bearer <access token from your authorization server>',
          },
        };
  const remote = { mcpServers: { [name]: { type: 'http', url, ...authorization } } };
  const serverEnv = Object.entries(hostEnv(model, 'http')).map(([key]) => key);
  const legacy = model.protocol.legacy === 'serve';
  return {
    stdioJson: JSON.stringify(stdio, null, 2),
    stdioEnv: Object.keys(env)
      .map((key) => `\`${key}\``)
      .join(', '),
    httpJson: JSON.stringify(remote, null, 2),
    httpUrl: url,
    // The Inspector line is pasted into a shell, and the host is the manifest's text.
    httpUrlWord: shellWord(url),
    httpServerEnv: serverEnv.map((key) => `\`${key}\``).join(', '),
    inspectorVersion: inspectorPin.version,
    inspectorNode: inspectorPin.node,
    inspectorEra: legacy ? '' : ' --protocol-era modern',
    // What a host runs, with the configuration the README's Environment section puts in `.env`.
    inspectorCommand:
      environmentVariables(model).length > 0 ? 'node --env-file=.env dist/server.mjs' : 'node dist/server.mjs',
    legacyServe: legacy,
    hasApproval: model.tools.some((t) => t.approval === 'confirm'),
    authorization: model.auth.type !== 'none',
  };
}
