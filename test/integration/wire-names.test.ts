import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeGolden, repoRoot } from '../support/golden.js';
import { compileProject } from '../support/servers.js';

// Names MCP allows but snake_case does not (`get-sum`, `printEnv`, `v2.search_items`, a prompt argument
// `output-style`): the golden tree of test/fixtures/valid/wire-names, with handlers written in its
// handler files, compiled and spoken to by the SDK client over stdio, lists and answers them exactly.

const project = path.join(repoRoot, '.test-out', 'wire-names');

const handlers: Record<string, string> = {
  'src/handlers/tools/get-sum.ts': [
    "import type { ToolHandler } from '../../generated/index.gen.js';",
    '',
    "export const getSumHandler: ToolHandler<'get-sum'> = async (input) =>",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: handler source text with a template literal
    '  `The sum of ${input.a} and ${input.b} is ${input.a + input.b}.`;',
    '',
  ].join('\n'),
  'src/handlers/tools/print-env.ts': [
    "import type { ToolHandler } from '../../generated/index.gen.js';",
    '',
    "export const printEnvHandler: ToolHandler<'printEnv'> = async () =>",
    "  Object.keys(process.env).filter((k) => k === 'WIRE_NAMES_TEST').join(',');",
    '',
  ].join('\n'),
  'src/handlers/tools/v2-search-items.ts': [
    "import type { ToolHandler } from '../../generated/index.gen.js';",
    '',
    "export const v2SearchItemsHandler: ToolHandler<'v2.search_items'> = async (input) => ({",
    "  items: ['apple', 'grape'].filter((i) => i.includes(input.query)),",
    '});',
    '',
  ].join('\n'),
  'src/handlers/prompts/complex-prompt.ts': [
    "import type { PromptHandler } from '../../generated/index.gen.js';",
    '',
    "export const complexPromptHandler: PromptHandler<'complexPrompt'> = async (args) => [",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: handler source text with a template literal
    "  { role: 'user', text: `t=${args.temperature} style=${args['output-style'] ?? 'none'}` },",
    '];',
    '',
  ].join('\n'),
};

let entry = '';

beforeAll(() => {
  rmSync(project, { recursive: true, force: true });
  materializeGolden('wire-names', project);
  for (const [file, text] of Object.entries(handlers)) writeFileSync(path.join(project, file), text);
  entry = compileProject(project, path.join(project, 'dist'));
}, 180_000);

describe('a generated server with names MCP allows but snake_case does not, over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [entry],
        env: { PATH: process.env.PATH ?? '', WIRE_NAMES_TEST: '1' },
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client.close();
  }, 30_000);

  it('lists the tools and prompts under their exact names', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['get-sum', 'printEnv', 'v2.search_items']);
    expect((await client.listPrompts()).prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => a.name)])).toEqual([
      ['complexPrompt', ['output-style', 'temperature']],
      ['simple-prompt', []],
    ]);
  }, 30_000);

  it('calls each tool by its exact name', async () => {
    expect((await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } })).content).toEqual([
      { type: 'text', text: 'The sum of 2 and 3 is 5.' },
    ]);
    expect((await client.callTool({ name: 'printEnv', arguments: {} })).content).toEqual([
      { type: 'text', text: 'WIRE_NAMES_TEST' },
    ]);
    const search = await client.callTool({ name: 'v2.search_items', arguments: { query: 'ap' } });
    expect(search.structuredContent).toEqual({ items: ['apple', 'grape'] });
  }, 30_000);

  it('gets each prompt by its exact name, with an argument named in kebab-case', async () => {
    const complex = await client.getPrompt({
      name: 'complexPrompt',
      arguments: { temperature: '0.5', 'output-style': 'terse' },
    });
    expect(complex.messages).toEqual([{ role: 'user', content: { type: 'text', text: 't=0.5 style=terse' } }]);
    const simple = await client.getPrompt({ name: 'simple-prompt' });
    expect(simple.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } },
    ]);
  }, 30_000);
});
