// The comparison server: the same two tools as scripts/bench-http/manifest.yaml, written the way the
// SDK's own docs show it. The McpServer and its zod schemas are built inside the factory, the factory
// goes to createMcpHandler (defaults, so legacy 2025 clients are served statelessly, like the
// generated server's `legacy: serve`), and @modelcontextprotocol/node's toNodeHandler serves it on
// node:http behind the package's localhost Host/Origin guards (the generated server checks both too).
// Deliberately not optimised: this is the baseline a user gets by following the README. The one
// liberty: each transport's own module is imported only in its branch, so stdio does not pay for
// loading hono, exactly like the docs' stdio-only example (this makes the cold-start baseline stronger).
//
// Usage: node scripts/bench-http/sdk-server.mjs http   → prints "listening on http://127.0.0.1:<port>/mcp" on stderr
//        node scripts/bench-http/sdk-server.mjs stdio  → newline-delimited JSON-RPC on stdin/stdout
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

function buildServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });

  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Add two numbers and return their sum.',
      inputSchema: z.object({ a: z.number().min(-1_000_000).max(1_000_000), b: z.number().min(-1_000_000).max(1_000_000) }).strict(),
      outputSchema: z.object({ sum: z.number() }).strict(),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ a, b }) => {
      const output = { sum: a + b };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );

  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Return the given text unchanged.',
      inputSchema: z.object({ text: z.string().max(1000) }).strict(),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );

  return server;
}

if (process.argv[2] === 'stdio') {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(buildServer);
} else {
  const { createServer } = await import('node:http');
  const { localhostHostValidation, localhostOriginValidation, toNodeHandler } = await import('@modelcontextprotocol/node');
  const handler = toNodeHandler(createMcpHandler(buildServer));
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const server = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void handler(req, res);
  });
  server.listen(0, '127.0.0.1', () => {
    process.stderr.write(`bench-sdk listening on http://127.0.0.1:${server.address().port}/mcp\n`);
  });
}
