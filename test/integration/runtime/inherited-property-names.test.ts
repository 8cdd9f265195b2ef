import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, generateAndCompile, repoRoot, rpc, startHttpServer, type RunningServer } from './harness.js';

// An input property named as a member every object inherits (`constructor`, `toString`) in a project with more tool
// schemas than are compiled to code (500): the SDK compiled the schema on first use with ajv, which tested
// `data.constructor !== undefined`, true for every object. `required: [constructor]` then passed without it, and an
// optional `toString` was checked against Object's function, so every call that left it out was refused.

const lines = [
  'mcpGen: 1',
  'server: { name: wide-desk, version: 1.0.0 }',
  'protocol: { legacy: reject }',
  'transports:',
  '  http: { host: 127.0.0.1, port: 3000, path: /mcp }',
  'tools:',
  '  make_car:',
  '    description: Register a racing car by its constructor, the team that builds it.',
  '    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }',
  '    input:',
  '      type: object',
  '      additionalProperties: false',
  '      required: [constructor]',
  '      properties:',
  '        constructor: { type: string, maxLength: 40 }',
  '        toString: { type: string, maxLength: 40 }',
  // 500 more tool schemas: past the 500 compiled to code.
  ...Array.from({ length: 500 }, (_, i) => [
    `  get_item_${i}:`,
    `    description: Get item ${i}.`,
    '    annotations: { readOnlyHint: true, openWorldHint: false }',
    '    input: { type: object, additionalProperties: false }',
  ]).flat(),
];
const handlers = {
  'src/handlers/tools/make_car.ts':
    "import type { ToolHandler } from '../../generated/index.gen.js';\n" +
    "export const makeCarHandler: ToolHandler<'make_car'> = async (input) => JSON.stringify(input);\n",
};

let entry = '';
beforeAll(() => {
  const file = path.join(repoRoot, '.test-out', 'runtime-inherited-property-names.yaml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${lines.join('\n')}\n`);
  entry = generateAndCompile(file, 'runtime-inherited-property-names', handlers);
}, 240_000);

describe('input properties named as inherited members, validated at run time', () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('requires constructor as an own property and checks toString only when given', async () => {
    const validators = readFileSync(
      path.join(repoRoot, '.test-out', 'runtime-inherited-property-names', 'src', 'generated', 'validators.gen.ts'),
      'utf8',
    );
    expect(validators).toContain('export const validators: PrecompiledValidators = {\n  make_car: { input: ');
    server = await startHttpServer(entry, {});
    // The answer without its envelope (_meta, resultType).
    const call = async (args: Record<string, unknown>) => {
      const answer = await rpc(server?.url as URL, 'tools/call', {
        name: 'make_car',
        arguments: args,
        _meta: envelope(),
      });
      const { content, isError } = answer.body.result as { content: { type: string; text: string }[]; isError?: true };
      return isError === undefined ? { content } : { content, isError };
    };
    expect(await call({})).toEqual({
      content: [
        {
          type: 'text',
          text:
            'Input validation error: Invalid arguments for tool make_car: ' +
            "data must have required property 'constructor'",
        },
      ],
      isError: true,
    });
    expect(await call({ constructor: 'x' })).toEqual({ content: [{ type: 'text', text: '{"constructor":"x"}' }] });
    expect((await call({ constructor: 'x', toString: 5 })).content[0]?.text).toBe(
      'Input validation error: Invalid arguments for tool make_car: data/toString must be string',
    );
  }, 120_000);
});
