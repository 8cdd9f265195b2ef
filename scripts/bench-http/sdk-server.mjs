// The comparison server: the same two tools as scripts/bench-http/manifest.yaml, written the way the
// SDK's own docs show it. The McpServer and its zod schemas are built inside the factory, the factory
// goes to createMcpHandler (defaults, so legacy 2025 clients are served statelessly, like the
// generated server's `legacy: serve`), and @modelcontextprotocol/node's toNodeHandler serves it on
// node:http behind the package's localhost Host/Origin guards (the generated server checks both too).
// The one liberty: each transport's own module is imported only in its branch, so stdio does not pay
// for loading hono, exactly like the docs' stdio-only example.
//
// With `once`, the zod schemas are built a single time at module scope and the factory only
// registers the tools: what a careful engineer writes, since createMcpHandler calls the factory for
// every request. That is the fair baseline; the docs-style server is kept as a second one.
//
// Usage: node scripts/bench-http/sdk-server.mjs http [once]  →
// prints "listening on http://127.0.0.1:<port>/mcp" on stderr
//        node scripts/bench-http/sdk-server.mjs stdio [once] → newline-delimited JSON-RPC on stdin/stdout
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

function buildSchemas() {
  const bounded = () => z.number().min(-1_000_000).max(1_000_000);
  return {
    addInput: z.object({ a: bounded(), b: bounded() }).strict(),
    addOutput: z.object({ sum: z.number() }).strict(),
    echoInput: z.object({ text: z.string().max(1000) }).strict(),
  };
}

const hoisted = process.argv[3] === 'once' ? buildSchemas() : null;

function buildServer() {
  const schemas = hoisted ?? buildSchemas();
  const server = new McpServer({ name: 'bench', version: '1.0.0' });

  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Add two numbers and return their sum.',
      inputSchema: schemas.addInput,
      outputSchema: schemas.addOutput,
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
      inputSchema: schemas.echoInput,
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
  const { localhostHostValidation, localhostOriginValidation, toNodeHandler } = await import(
    '@modelcontextprotocol/node'
  );
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
