/**
 * What hosts and model APIs are reported to enforce on a server's tool surface, one row per host, each with its
 * sources (../shared/reference/host-limits.md collects them). The design review compares the default `tools/list`
 * with every row; `review.hosts` names the rows whose limits fail the gate. `null`: no documented limit of that kind.
 * No host in the sources documents a limit on a tool description's length, so no row has one.
 */
export interface HostLimits {
  readonly id: string;
  readonly name: string;
  /** Tools a request may carry (across all servers, so one server alone must stay within it). */
  readonly maxTools: number | null;
  /** Longest tool name; with `nameWithServer`, server name + tool name together. */
  readonly maxNameLength: number | null;
  readonly nameWithServer: boolean;
  /** The characters a tool name may use, as a pattern of the whole name. */
  readonly namePattern: string | null;
  /** Bytes of one `tools/list` page the client can read. */
  readonly maxPageBytes: number | null;
  readonly source: string;
}

const none = { maxTools: null, maxNameLength: null, nameWithServer: false, namePattern: null, maxPageBytes: null };

/** Sorted by id; the ids are what `review.hosts` accepts. */
export const hostLimits: readonly HostLimits[] = [
  {
    ...none,
    id: 'cursor',
    name: 'Cursor',
    maxTools: 40,
    maxNameLength: 60,
    nameWithServer: true,
    source: 'codefriar/sf-mcp#5 ("cursor limits tools to max 40"); Cursor MCP guides (tool budget, name length)',
  },
  {
    ...none,
    id: 'jetbrains-copilot',
    name: 'GitHub Copilot in JetBrains IDEs',
    maxTools: 128,
    source: 'microsoft/vscode-copilot-release#11653; Azure/azure-mcp#372; postmanlabs/postman-mcp-server#26',
  },
  {
    ...none,
    id: 'mcp-typescript-sdk',
    name: 'Clients on the official MCP TypeScript SDK (stdio)',
    maxPageBytes: 10 * 1024 * 1024,
    source: "STDIO_DEFAULT_MAX_BUFFER_SIZE (10 MiB) of the SDK's stdio reader; a 36.2 MB page closed the connection",
  },
  {
    ...none,
    id: 'openai',
    name: 'OpenAI function calling (and hosts built on it)',
    maxTools: 128,
    maxNameLength: 64,
    namePattern: '^[a-zA-Z0-9_-]+$',
    source: 'OpenAI API reference, tools: function name ^[a-zA-Z0-9_-]{1,64}$, at most 128 tools',
  },
  {
    ...none,
    id: 'vscode-copilot',
    name: 'GitHub Copilot in VS Code',
    maxTools: 128,
    source: 'microsoft/vscode-copilot-release#11653, #9375; microsoft/vscode#255585, #337428; Azure/azure-mcp#372',
  },
];

/** The ids `review.hosts` accepts. */
export const hostIds: readonly string[] = hostLimits.map((h) => h.id);
