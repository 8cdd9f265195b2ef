// The framework row of the HTTP benchmark: fastmcp (TypeScript, on SDK 1.x, so protocol 2025-11-25) serving
// the benchmark's `add` tool with the same bounds and an output schema, over Streamable HTTP in its stateless
// mode with JSON responses: a fresh session per request and no Mcp-Session-Id, the closest fastmcp comes to a
// stateless 2026-07-28 server. fastmcp and its zod come from the benchmark's scratch folder (scripts/bench/
// peer.mjs installs them), never from mcp-gen's dependencies.
//
// Usage: node scripts/bench-http/fastmcp-server.mjs <node_modules folder>
//        prints "listening on http://127.0.0.1:<port>/mcp" on stderr
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const modules = process.argv[2];
if (modules === undefined) throw new Error('usage: fastmcp-server.mjs <node_modules folder>');
const load = (file) => import(pathToFileURL(path.join(modules, file)).href);
const { FastMCP } = await load('fastmcp/dist/FastMCP.js');
const { z } = await load('zod/index.js');

/** A free loopback port: fastmcp prints none of its own when asked for port 0. */
const port = await new Promise((resolve, reject) => {
  const probe = createServer().once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});

const bounded = () => z.number().int().min(-1_000_000_000).max(1_000_000_000);
const server = new FastMCP({ name: 'bench-fastmcp', version: '1.0.0' });
server.addTool({
  name: 'add',
  description: 'Add two integers and return their exact sum as `sum`.',
  parameters: z.object({ a: bounded(), b: bounded() }).strict(),
  outputSchema: z.object({ sum: z.number().int() }).strict(),
  annotations: { readOnlyHint: true, openWorldHint: false },
  execute: async ({ a, b }) => ({ sum: a + b }),
});
await server.start({
  transportType: 'httpStream',
  httpStream: { host: '127.0.0.1', port, endpoint: '/mcp', stateless: true, enableJsonResponse: true },
});
process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    void server.stop().finally(() => process.exit(0));
  });
}
