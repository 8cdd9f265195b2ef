/**
 * MCP's own defaults for tool annotations, in one place: `destructiveHint`
 * defaults to true unless the tool is read-only (spec, ToolAnnotations).
 */
export function isEffectivelyDestructive(annotations: {
  readonly readOnlyHint?: unknown;
  readonly destructiveHint?: unknown;
}): boolean {
  if (annotations.readOnlyHint === true) return false;
  return annotations.destructiveHint !== false;
}

/** The MCP revision generated servers implement on the modern path; the only one `protocol.versions` may list. */
export const protocolVersion = '2026-07-28';

/** The id of the Tasks extension, in `capabilities.extensions` and in a client's per-request capabilities. */
export const tasksExtension = 'io.modelcontextprotocol/tasks';

/** The handshake-era revision whose clients `protocol.legacy` serves or rejects. */
export const legacyProtocolVersion = '2025-11-25';

/**
 * Every value the manifest may leave out, in one place: the manifest
 * schema's `default`s, and so the tables of `docs/manifest.md`, are these.
 */
export const manifestDefaults = {
  protocolVersions: [protocolVersion],
  legacy: 'serve',
  cacheTtlMs: 300_000,
  /** Public when there is no auth; private when results may depend on who asks. */
  cacheScopeWithoutAuth: 'public',
  cacheScopeWithAuth: 'private',
  httpHost: '127.0.0.1',
  httpPort: 3000,
  httpPath: '/mcp',
  httpMaxConcurrentCalls: 100,
  stdioMaxConcurrentCalls: 100,
  httpMaxBufferedBytes: 16 * 1024 * 1024,
  httpShutdownGraceMs: 10_000,
  httpMaxListenStreams: 1000,
  httpMaxListenStreamsPerPrincipal: 10,
  httpListenKeepAliveMs: 15_000,
  httpListenIdleMs: 600_000,
  toolTimeoutMs: 30_000,
  handleTtlMs: 3_600_000,
  handleExampleId: 'contract-test',
  /** How long a stored result answers a retry with the same idempotency key. */
  idempotencyTtlMs: 86_400_000,
  /** `approvals.page`: the approval page for a client that cannot be asked in-band. */
  approvalPage: 'fallback',
  /** `approvals.ttl`: how long an approval stays answerable. */
  approvalTtlMs: 300_000,
  /** Without a `telemetry` section a server has none, and no `@opentelemetry/api` dependency. */
  telemetry: 'none',
  /** How long a task and its result stay readable with tasks/get. */
  taskTtlMs: 3_600_000,
  maxTools: 20,
  /** About a tenth of a 200,000-token context window, and about 128 tools of 150 tokens (docs/design-review.md). */
  maxListTokens: 20_000,
  /** Items per page of tools/list, prompts/list, resources/list and resources/templates/list. */
  pageSize: 100,
  maxPageSize: 1000,
} as const;
