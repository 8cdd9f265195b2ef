import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, generateAndCompile, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// Tools and prompts named as members every JavaScript object has (`constructor`, `toString`, `valueOf`): the SDK looks
// names up in plain objects, so a tool named `constructor` could not be registered (every request answered 500), a
// call of such a name that is no tool answered "Tool valueOf disabled" instead of "not found", and search_tools
// failed for a tool without tags named so (the server did not start) or a task saying "constructor".

const manifest = `mcpGen: 1
server: { name: racing-desk, version: 1.0.0 }
protocol: { legacy: reject }
discovery: search
transports:
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
toolsets:
  standings: { description: Season standings., default: true, tags: [standings] }
tools:
  constructor:
    description: Get one racing constructor, a team, by its id.
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
  toString:
    description: Show the season standings as text.
    tags: [standings]
    annotations: { readOnlyHint: true, openWorldHint: false }
    input: { type: object, additionalProperties: false }
prompts:
  valueOf:
    description: Ask for the value of a team.
    messages:
      - role: user
        text: What is the team worth?
`;
const handlers = {
  'src/handlers/tools/constructor.ts':
    "import type { ToolHandler } from '../../generated/index.gen.js';\n" +
    "export const constructorHandler: ToolHandler<'constructor'> = async () => 'a team';\n",
};

let entry = '';
beforeAll(() => {
  const file = path.join(repoRoot, '.test-out', 'runtime-inherited-tool-names.yaml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, manifest);
  entry = generateAndCompile(file, 'runtime-inherited-tool-names', handlers);
}, 240_000);

describe('tool and prompt names every JavaScript object has', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('serves, finds and calls them, and answers other such names as unknown, on the fast path and off it', async () => {
    for (const env of [{}, { MCP_GEN_HTTP_FAST_PATH: 'off' }]) {
      const server = await startHttpServer(entry, env);
      servers.push(server);
      const call = async (name: string, args: Record<string, unknown>) => {
        const answer = await rpc(server.url, 'tools/call', { name, arguments: args, _meta: envelope() });
        return { status: answer.status, body: answer.body };
      };
      const ran = { status: 200, body: expect.objectContaining({ result: expect.anything() }) };
      expect(await call('constructor', {})).toEqual(ran);
      expect((await call('constructor', {})).body.result.content).toEqual([{ type: 'text', text: 'a team' }]);
      const unknown = (name: string) => ({
        status: 200,
        body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: `Tool ${name} not found` } },
      });
      expect(await call('valueOf', {})).toEqual(unknown('valueOf'));
      expect(await call('hasOwnProperty', {})).toEqual(unknown('hasOwnProperty'));
      const proxied = await call('call_tool', { name: 'constructor', arguments: {} });
      expect(proxied.body.result.content).toEqual([{ type: 'text', text: 'a team' }]);
      const missing = await call('call_tool', { name: 'isPrototypeOf', arguments: {} });
      expect(missing.body.result.content).toEqual([{ type: 'text', text: 'Tool isPrototypeOf not found' }]);
      const found = await call('search_tools', { query: 'racing constructor team' });
      expect(found.body.result.structuredContent.tools.map((t: { name: string }) => t.name)).toEqual(['constructor']);
      const prompt = await rpc(server.url, 'prompts/get', { name: 'valueOf', _meta: envelope() });
      expect(prompt.body.result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'What is the team worth?' } },
      ]);
      const other = await rpc(server.url, 'prompts/get', { name: 'toString', _meta: envelope() });
      expect(other.body.error).toEqual({ code: -32602, message: 'Prompt toString not found' });
    }
  }, 240_000);
});
