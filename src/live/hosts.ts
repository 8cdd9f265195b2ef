/**
 * The hosts `mcp-gen install` writes into: where each keeps its configuration
 * and the shape of one stdio server entry there, as each host documents it:
 * - Claude Desktop: `mcpServers` in claude_desktop_config.json, `command`,
 *   `args`, `env`; no variable expansion
 *   (https://modelcontextprotocol.io/quickstart/user).
 * - Claude Code, project scope: `mcpServers` in the project's `.mcp.json`,
 *   `type: "stdio"`, `command`, `args`, `env`; `${VAR}` expands from the
 *   environment Claude Code runs in (https://code.claude.com/docs/en/mcp).
 * - Cursor: `mcpServers` in `.cursor/mcp.json` (project) or `~/.cursor/mcp.json`,
 *   `command`, `args`, `env`; `${env:NAME}` expands (https://cursor.com/docs/context/mcp).
 * - VS Code: top-level `servers` in `.vscode/mcp.json`, `type: "stdio"`,
 *   `command`, `args`, `env`, and `inputs` (`promptString`, `password: true`)
 *   referenced as `${input:id}`: VS Code asks once and keeps the value in its
 *   secret storage (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
 * - json: any host that reads the common `mcpServers` shape, at `--file`.
 */
import path from 'node:path';

export const hostIds = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'json'] as const;
export type HostId = (typeof hostIds)[number];

/** How a host's entry takes a secret the user did not pass with `--env`. */
export type SecretStyle =
  /** A placeholder the user replaces by hand (the host expands nothing). */
  | 'placeholder'
  /** A reference the host expands from its own environment: `${NAME}` or `${env:NAME}`. */
  | { readonly expand: (name: string) => string }
  /** A VS Code input: the host prompts for it and keeps it in its secret storage. */
  | 'input';

export interface Host {
  readonly id: HostId;
  readonly title: string;
  /** The key of the server map at the top of the file. */
  readonly serversKey: 'mcpServers' | 'servers';
  /** Whether an entry names its transport (`type: "stdio"`). */
  readonly typed: boolean;
  readonly secrets: SecretStyle;
}

export const hosts: Readonly<Record<HostId, Host>> = {
  'claude-desktop': {
    id: 'claude-desktop',
    title: 'Claude Desktop',
    serversKey: 'mcpServers',
    typed: false,
    secrets: 'placeholder',
  },
  'claude-code': {
    id: 'claude-code',
    title: 'Claude Code',
    serversKey: 'mcpServers',
    typed: true,
    secrets: { expand: (name) => `\${${name}}` },
  },
  cursor: {
    id: 'cursor',
    title: 'Cursor',
    serversKey: 'mcpServers',
    typed: false,
    secrets: { expand: (name) => `\${env:${name}}` },
  },
  vscode: { id: 'vscode', title: 'VS Code', serversKey: 'servers', typed: true, secrets: 'input' },
  json: { id: 'json', title: 'mcpServers JSON', serversKey: 'mcpServers', typed: false, secrets: 'placeholder' },
};

/** Where the configuration lives on this machine. */
export interface HostPlace {
  readonly project: string;
  readonly home: string;
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Cursor's own file (~/.cursor/mcp.json) instead of the project's. */
  readonly global: boolean;
}

/** The host's configuration file; null for `json`, which has no place of its own. */
export function hostConfigPath(id: HostId, place: HostPlace): string | null {
  switch (id) {
    case 'claude-desktop':
      if (place.platform === 'darwin')
        return path.join(place.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (place.platform === 'win32')
        return path.join(
          place.env.APPDATA ?? path.join(place.home, 'AppData', 'Roaming'),
          'Claude',
          'claude_desktop_config.json',
        );
      return path.join(
        place.env.XDG_CONFIG_HOME ?? path.join(place.home, '.config'),
        'Claude',
        'claude_desktop_config.json',
      );
    case 'claude-code':
      return path.join(place.project, '.mcp.json');
    case 'cursor':
      return place.global
        ? path.join(place.home, '.cursor', 'mcp.json')
        : path.join(place.project, '.cursor', 'mcp.json');
    case 'vscode':
      return path.join(place.project, '.vscode', 'mcp.json');
    case 'json':
      return null;
  }
}
