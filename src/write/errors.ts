/** The disk refused a write; nothing was changed. An environment problem, not a bug in mcp-gen. */
export class WriteError extends Error {
  override readonly name = 'WriteError';
}
