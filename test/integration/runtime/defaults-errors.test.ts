import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, envelope, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// JSON Schema defaults reach the handler (and its input type says so), and one error model answers
// for tools, resources and prompts: isError for tools, -32602 or -32603 by the error's kind elsewhere.

const manifest = `mcpGen: 1
server: { name: defaults, version: 1.0.0 }
transports:
  stdio: {}
  http: { host: 127.0.0.1, port: 3000, path: /mcp }
tools:
  list_items:
    description: Lists items, at most \`limit\`.
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false }
    input:
      type: object
      properties:
        limit: { type: integer, minimum: 1, maximum: 50, default: 5 }
        filter: { type: object, properties: { tag: { type: string, default: any } }, additionalProperties: false }
      additionalProperties: false
    output:
      type: object
      properties: { limit: { type: integer }, tag: { type: string } }
      required: [limit]
resources:
  item:
    uriTemplate: items://{id}
    mimeType: text/plain
prompts:
  explain:
    description: Explains one item.
    arguments: { id: { description: The item, required: true } }
`;

const handlers = {
  // \`const limit: number\` type-checks only because a defaulted property is not optional in the input type.
  'src/handlers/tools/list_items.ts': `import type { ToolHandler } from '../../generated/index.gen.js';

export const listItemsHandler: ToolHandler<'list_items'> = async (input) => {
  const limit: number = input.limit;
  return input.filter === undefined ? { limit } : { limit, tag: input.filter.tag };
};
`,
  'src/handlers/resources/item.ts': `import { ToolError, type ResourceHandler } from '../../generated/index.gen.js';

export const itemHandler: ResourceHandler<'item'> = async (_uri, variables) => {
  if (variables.id === 'bad') throw new ToolError('ids are numbers', 'invalid');
  if (variables.id === 'busy') throw new ToolError('the item is being edited', 'conflict');
  if (variables.id === 'boom') throw new Error('secret connection string');
  throw new ToolError(\`No item has the id "\${variables.id}".\`, 'not_found');
};
`,
  'src/handlers/prompts/explain.ts': `import { ToolError, type PromptHandler } from '../../generated/index.gen.js';

export const explainHandler: PromptHandler<'explain'> = async (args) => {
  if (args.id === 'x') throw new ToolError('id must be a number', 'invalid');
  return [{ role: 'user', text: \`Explain item \${args.id}.\` }];
};
`,
};

let server: RunningServer;

beforeAll(async () => {
  const manifestPath = path.join(repoRoot, '.test-out', 'runtime-defaults.yaml');
  mkdirSync(path.dirname(manifestPath), { recursive: true });
  writeFileSync(manifestPath, manifest);
  server = await startHttpServer(buildProject(manifestPath, 'runtime-defaults', handlers), {});
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

const call = async (method: string, params: Record<string, unknown>) =>
  (await rpc(server.url, method, { ...params, _meta: envelope() })).body;

describe('defaults', () => {
  it('a call without limit gives the handler the default 5; nested defaults too', async () => {
    expect((await call('tools/call', { name: 'list_items', arguments: {} })).result.structuredContent).toEqual({
      limit: 5,
    });
    expect(
      (await call('tools/call', { name: 'list_items', arguments: { limit: 7, filter: {} } })).result.structuredContent,
    ).toEqual({ limit: 7, tag: 'any' });
  });
});

describe('the error model', () => {
  it('resource: not_found -32602 with the URI, invalid -32602, conflict -32603 with message, else -32603', async () => {
    expect((await call('resources/read', { uri: 'items://7' })).error).toEqual({
      code: -32602,
      message: 'No item has the id "7".',
      data: { uri: 'items://7' },
    });
    expect((await call('resources/read', { uri: 'items://bad' })).error).toMatchObject({
      code: -32602,
      message: 'ids are numbers',
    });
    expect((await call('resources/read', { uri: 'items://busy' })).error).toMatchObject({
      code: -32603,
      message: 'the item is being edited',
    });
    const internal = (await call('resources/read', { uri: 'items://boom' })).error;
    expect(internal.code).toBe(-32603);
    expect(JSON.stringify(internal)).not.toContain('secret');
  });

  it('prompt: a bad argument is -32602 with the message', async () => {
    expect((await call('prompts/get', { name: 'explain', arguments: { id: 'x' } })).error).toMatchObject({
      code: -32602,
      message: 'id must be a number',
    });
    expect((await call('prompts/get', { name: 'explain', arguments: { id: '3' } })).result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Explain item 3.' } },
    ]);
  });
});
