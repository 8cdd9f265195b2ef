// The projects of the feature matrix (matrix.test.ts): which features each combines, and the manifest and
// handler written for it.
export interface Combo {
  readonly name: string;
  readonly transport: 'stdio' | 'http' | 'both';
  readonly auth: 'none' | 'bearer' | 'oauth';
  readonly approval: boolean;
  readonly handles: boolean;
  readonly resources: boolean;
  readonly prompts: boolean;
  /** `protocol.legacy: reject` (the default, serve, adds the legacy adapter to HTTP servers). */
  readonly rejectLegacy?: boolean;
}

export const combos: readonly Combo[] = [
  {
    name: 'stdio-core',
    transport: 'stdio',
    auth: 'none',
    approval: false,
    handles: false,
    resources: false,
    prompts: false,
  },
  {
    name: 'stdio-all',
    transport: 'stdio',
    auth: 'none',
    approval: true,
    handles: true,
    resources: true,
    prompts: true,
  },
  {
    name: 'http-none',
    transport: 'http',
    auth: 'none',
    approval: true,
    handles: false,
    resources: true,
    prompts: false,
  },
  {
    name: 'http-bearer',
    transport: 'http',
    auth: 'bearer',
    approval: false,
    handles: true,
    resources: false,
    prompts: true,
  },
  {
    name: 'http-oauth',
    transport: 'http',
    auth: 'oauth',
    approval: true,
    handles: true,
    resources: false,
    prompts: false,
    rejectLegacy: true,
  },
  {
    name: 'both-none',
    transport: 'both',
    auth: 'none',
    approval: false,
    handles: true,
    resources: true,
    prompts: false,
  },
  {
    name: 'both-bearer',
    transport: 'both',
    auth: 'bearer',
    approval: true,
    handles: false,
    resources: false,
    prompts: true,
  },
  {
    name: 'both-oauth',
    transport: 'both',
    auth: 'oauth',
    approval: false,
    handles: false,
    resources: true,
    prompts: true,
  },
];

// MATRIX_REDIS points at a closed port: the Redis combo starts, logs the store unreachable, and its echo still answers.
export const keys = {
  MATRIX_HANDLE_KEY: 'matrix-handle-key-0123456789abcdef-0123',
  MATRIX_STATE_KEY: 'matrix-state-key-0123456789abcdef-01234',
  MATRIX_REDIS: 'redis://127.0.0.1:9',
};
export const bearerToken = 'matrix-token-0123456789abcdef';
export const oauth = { issuer: 'https://issuer.example.test', resource: 'https://matrix.example.test/mcp' };

export function manifest(combo: Combo, jwksUri: string): string {
  const transports = [
    combo.transport !== 'http' ? '  stdio: {}' : '',
    combo.transport !== 'stdio' ? '  http: { host: 127.0.0.1, port: 3000, path: /mcp }' : '',
  ];
  const scopes = '  scopes: { items.read: Read items }';
  const auth = {
    none: [],
    bearer: ['auth:', '  type: bearer', '  tokensEnv: MATRIX_TOKENS', scopes],
    oauth: [
      'auth:',
      '  type: oauth',
      `  issuer: ${oauth.issuer}`,
      `  jwksUri: ${jwksUri}`,
      `  resource: ${oauth.resource}`,
      scopes,
    ],
  }[combo.auth];
  const object = (properties: string, required: string) =>
    `{ type: object, properties: { ${properties} }, required: [${required}], additionalProperties: false }`;
  const tool = (name: string, annotations: string, input: string, extra: readonly string[] = []) => [
    `  ${name}:`,
    `    description: The ${name.replace('_', ' ')} tool of the feature matrix.`,
    `    annotations: { ${annotations} }`,
    ...(combo.auth === 'none' ? [] : ['    scopes: [items.read]']),
    `    input: ${input}`,
    ...extra.map((line) => `    ${line}`),
  ];
  const lines = [
    'mcpGen: 1',
    'server: { name: matrix, version: 1.0.0 }',
    ...(combo.rejectLegacy === true ? ['protocol: { legacy: reject }'] : []),
    'transports:',
    ...transports.filter((line) => line !== ''),
    ...auth,
    ...(combo.handles ? ['handles:', '  draft: { description: A draft being written., ttl: 10m }'] : []),
    // The state store: memory wherever approval or an idempotency key needs it, Redis for one HTTP-only combo.
    ...(combo.name === 'http-oauth' ? ['store: { type: redis, urlEnv: MATRIX_REDIS }'] : []),
    // Change notifications on that combo's Redis bus (notify.gen.ts, notify-redis.gen.ts), down like its store.
    ...(combo.name === 'http-oauth' ? ['notifications: { listChanged: [tools] }'] : []),
    // The same combo as a Cloudflare Worker too: its entry and Durable Object modules type-check with the rest.
    ...(combo.name === 'http-oauth' ? ['targets: [node, workers]'] : []),
    // A config section (config.gen.ts) for one combo; optional, so every start needs no value for it.
    ...(combo.name === 'both-bearer'
      ? ['config:', '  MATRIX_GREETING: { description: A greeting., required: false }']
      : []),
    // OpenTelemetry (telemetry.gen.ts) on the same combo: a no-op here, since no SDK is registered.
    ...(combo.name === 'both-bearer' ? ['telemetry: { type: opentelemetry }'] : []),
    // Tool search (search.gen.ts) on one combo: the tools stay registered, so a direct tools/call still answers.
    ...(combo.name === 'both-oauth' ? ['discovery: search'] : []),
    // An HTTP binding (upstream.gen.ts) for one stdio combo: it type-checks; the test calls only echo.
    ...(combo.name === 'stdio-all'
      ? [
          'config:',
          '  MATRIX_API_URL: { description: The items API., type: url, default: "http://127.0.0.1:9/api" }',
          'upstream: { baseUrl: MATRIX_API_URL }',
        ]
      : []),
    'tools:',
    ...tool(
      'echo',
      'readOnlyHint: true, openWorldHint: false',
      object('text: { type: string, maxLength: 40 }', 'text'),
      [`output: ${object('text: { type: string }', 'text')}`],
    ),
    ...(combo.handles
      ? [
          ...tool(
            'open_draft',
            'readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false',
            object('', ''),
            [
              `output: ${object('draft: { $handle: draft }', 'draft')}`,
              ...(combo.approval ? ['idempotency: key'] : []),
            ],
          ),
          ...tool(
            'use_draft',
            'readOnlyHint: true, openWorldHint: false',
            object('draft: { $handle: draft }', 'draft'),
          ),
        ]
      : []),
    ...(combo.name === 'stdio-all'
      ? tool(
          'fetch_item',
          'readOnlyHint: true, openWorldHint: true',
          object('id: { type: string, maxLength: 40 }', 'id'),
          ['http: { method: GET, path: "/items/{id}", args: { id: path } }'],
        )
      : []),
    // A property every object inherits, in a schema with a format (compiled at run time): own-properties.gen.ts.
    ...(combo.name === 'both-none'
      ? tool(
          'inspect_item',
          'readOnlyHint: true, openWorldHint: false',
          object('constructor: { type: string, format: email, maxLength: 40 }', 'constructor'),
        )
      : []),
    ...(combo.approval
      ? tool(
          'remove_item',
          'destructiveHint: true, idempotentHint: false, openWorldHint: false',
          object('id: { type: string, maxLength: 40 }', 'id'),
          // A task too (tasks.gen.ts) wherever approval is on: its approval is then asked during the task.
          ['approval: confirm', 'task: optional'],
        )
      : []),
    ...(combo.resources
      ? ['resources:', '  readme: { uri: "matrix://readme", description: The readme., mimeType: text/plain }']
      : []),
    ...(combo.prompts
      ? [
          'prompts:',
          '  greet:',
          '    description: Greets someone.',
          '    arguments: { name: { description: Who to greet, required: true } }',
          '    messages: [{ role: user, text: "Hello {{name}}" }]',
        ]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** The echo handler, written over its stub: it imports only from the facade. */
export const echo = `import { ToolError, type ToolHandler } from '../../generated/index.gen.js';

export const echoHandler: ToolHandler<'echo'> = async (input) => {
  if (input.text === 'fail') throw new ToolError('failed on purpose');
  return { text: input.text };
};
`;
