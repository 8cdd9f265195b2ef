import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, envelope, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// Handlers are imported on their first call: starting, discovering and listing load no handler
// code, and a handler module that fails to load fails only its own calls.

const manifest = `mcpGen: 1
server: { name: lazy, version: 1.0.0 }
transports:
  stdio: {}
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
tools:
  greet:
    description: Greets someone by name.
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
    input:
      type: object
      properties: { name: { type: string, maxLength: 50 } }
      required: [name]
      additionalProperties: false
  broken:
    description: A tool whose module throws while it loads.
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
`;

// Each module says on stderr when it is evaluated, so the test can see when it was loaded.
const handlers = {
  'src/handlers/tools/greet.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

process.stderr.write('greet module loaded\\n');

export const greetHandler: ToolHandler<'greet'> = async (input) => \`Hello, \${input.name}!\`;
`,
  'src/handlers/tools/broken.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

process.stderr.write('broken module loaded\\n');
throw new Error('cannot reach the database at load time');

export const brokenHandler: ToolHandler<'broken'> = async () => 'never';
`,
};

let server: RunningServer;

beforeAll(async () => {
  const manifestPath = path.join(repoRoot, '.test-out', 'runtime-lazy.yaml');
  mkdirSync(path.dirname(manifestPath), { recursive: true });
  writeFileSync(manifestPath, manifest);
  server = await startHttpServer(buildProject(manifestPath, 'runtime-lazy', handlers), {});
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('lazy handler loading', () => {
  it('discovers and lists without loading any handler module', async () => {
    expect((await rpc(server.url, 'server/discover', { _meta: envelope() })).status).toBe(200);
    const list = await rpc(server.url, 'tools/list', { _meta: envelope() });
    expect(list.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['broken', 'greet']);
    expect(server.stderr()).not.toMatch(/module loaded/);
  });

  it('loads a handler on its first call, once', async () => {
    for (const name of ['Ann', 'Bo']) {
      const answer = await rpc(server.url, 'tools/call', { name: 'greet', arguments: { name }, _meta: envelope() });
      expect(answer.body.result).toEqual({
        content: [{ type: 'text', text: `Hello, ${name}!` }],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'lazy', version: '1.0.0' } },
      });
    }
    expect(server.stderr().match(/greet module loaded/g)).toEqual(['greet module loaded']);
  });

  it('fails only the calls of a module that cannot load: a generic isError, the cause on stderr', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await rpc(server.url, 'tools/call', { name: 'broken', arguments: {}, _meta: envelope() });
      expect(answer.body.result.content).toEqual([
        { type: 'text', text: 'The tool "broken" failed. Details were logged on the server.' },
      ]);
      expect(answer.body.result.isError).toBe(true);
    }
    expect(server.stderr()).toMatch(/tool "broken" failed: Error: cannot reach the database at load time\n {4}at /);
    const greet = await rpc(server.url, 'tools/call', { name: 'greet', arguments: { name: 'Cy' }, _meta: envelope() });
    expect(greet.body.result.content).toEqual([{ type: 'text', text: 'Hello, Cy!' }]);
  });
});
