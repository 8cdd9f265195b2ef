// The hand-written comparison for the demo example (examples/demo/mcp.yaml): the same tool,
// resource and prompt on the official SDK v2 over stdio, written by hand.
//
//   node scripts/bench/servers/demo-server.mjs          schemas built once, at module scope, the way
//                                                       a careful engineer writes it (the fair baseline)
//   node scripts/bench/servers/demo-server.mjs docs     schemas built inside the factory, the way the
//                                                       SDK's docs show it
//
// Both exit when stdin closes. The one difference between them is where the zod schemas are built.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

function buildSchemas() {
  const addend = (description) => z.number().int().min(-1_000_000_000).max(1_000_000_000).describe(description);
  return {
    addInput: z.object({ a: addend('The first addend.'), b: addend('The second addend.') }).strict(),
    addOutput: z.object({ sum: z.number().int().describe('a + b') }).strict(),
    reviewArgs: z.object({
      language: z.string().describe('The programming language of the snippet'),
      code: z.string().describe('The code to review'),
    }),
  };
}

const hoisted = process.argv[2] === 'docs' ? null : buildSchemas();
const appConfig = ['name=demo-server', 'version=0.2.0', 'protocol=2026-07-28', 'transport=stdio', 'auth=none', ''].join(
  '\n',
);

function buildServer() {
  const schemas = hoisted ?? buildSchemas();
  const server = new McpServer(
    {
      name: 'demo-server',
      version: '0.2.0',
      title: 'Demo Server',
      description:
        'The smallest useful 2026-07-28 server, from the MCP lesson. Adds two ' +
        'numbers, serves its app configuration and offers a code review prompt.',
    },
    {
      instructions:
        "Use add for exact integer sums. Read config://app for this server's " +
        'settings. The code_review prompt asks for a review of a snippet.',
    },
  );
  server.registerTool(
    'add',
    {
      title: 'Add two integers',
      description: 'Add two integers between -1000000000 and 1000000000 and return their exact sum as `sum`.',
      inputSchema: schemas.addInput,
      outputSchema: schemas.addOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ a, b }) => {
      const output = { sum: a + b };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );
  server.registerResource(
    'app_config',
    'config://app',
    {
      title: 'App configuration',
      description: "The demo server's configuration as plain text, one key=value pair per line.",
      mimeType: 'text/plain',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: appConfig }] }),
  );
  server.registerPrompt(
    'code_review',
    {
      title: 'Code review',
      description: 'Ask for a careful review of a code snippet in a given language.',
      argsSchema: schemas.reviewArgs,
    },
    ({ language, code }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Please review this ${language} code. Point out bugs, unclear ` +
              `names and missing tests, most important first.\n\n${code}`,
          },
        },
      ],
    }),
  );
  return server;
}

serveStdio(buildServer, { legacy: 'reject' });
