import { describe, expect, it } from 'vitest';
import { compileSchema, prepareSchema, reusingCompile } from '../../src/emit/types/compile.js';
import type { EmitContext } from '../../src/emit/shared/files.js';
import { emitValidators, maxPrecompiledSchemas } from '../../src/emit/validators/index.js';

// An imported API repeats most tool schemas (GitHub: 2,153 tool schemas, 1,175 distinct); each distinct one is
// compiled once, and what a repeat gets must be exactly what compiling it again would give.

const ownerRepo = {
  type: 'object',
  properties: {
    owner: { type: 'string', description: 'The account owner of the repository.' },
    repo: { type: 'string' },
    labels: { type: 'array', items: { type: 'object', title: 'Label', properties: { name: { type: 'string' } } } },
  },
  required: ['owner', 'repo'],
  additionalProperties: false,
};

/** A fresh copy for the compiler, which may change what it is given (compile.ts, PreparedSchema). */
const prepared = (schema: Record<string, unknown>) => prepareSchema(schema, [], 'output');

describe('types of repeated schemas', () => {
  it('gives a repeat the text a fresh compile gives', async () => {
    const compile = reusingCompile();
    const first = await compile(prepared(ownerRepo), 'GetRepoInput');
    expect(first).toBe(await compileSchema(ownerRepo, 'GetRepoInput'));
    expect(await compile(prepared(ownerRepo), 'DeleteRepoInput')).toBe(
      await compileSchema(ownerRepo, 'DeleteRepoInput'),
    );
    expect(await compile(prepared(ownerRepo), 'ListLabelsInput')).toBe(
      await compileSchema(ownerRepo, 'ListLabelsInput'),
    );
  });

  it('compiles again when a name occurs elsewhere in the text', async () => {
    // A nested title equal to the next root name is numbered by the compiler; a comment naming the root, and
    // recursion through the root, would be renamed by a blind swap.
    const cases: [Record<string, unknown>, string, string][] = [
      [ownerRepo, 'RepoInput', 'Label'],
      [{ ...ownerRepo, description: 'Same as GetThingInput.' }, 'GetThingInput', 'OtherInput'],
      [{ type: 'object', properties: { next: { $ref: '#' } } }, 'NodeInput', 'TreeInput'],
    ];
    for (const [schema, firstName, secondName] of cases) {
      const compile = reusingCompile();
      await compile(prepared(schema), firstName);
      expect(await compile(prepared(schema), secondName)).toBe(await compileSchema(schema, secondName));
    }
  });
});

const ctx: EmitContext = {
  manifestPath: 'mcp.yaml',
  regenerateCommand: 'mcp-gen generate',
  templates: new Map(),
  mcpGenVersion: '0.0.0',
};

describe('validators of repeated schemas', () => {
  it('compiles a repeated schema once and names its validator for every tool that has it', async () => {
    const other = { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false };
    const file = await emitValidators(
      [
        { name: 'get_repo', inputSchema: ownerRepo, outputSchema: other },
        { name: 'delete_repo', inputSchema: { ...ownerRepo }, outputSchema: null },
        { name: 'get_issue', inputSchema: other, outputSchema: other },
      ],
      ctx,
    );
    const text = String(file.contents);
    expect(text.match(/^const \w+ = verdict\(/gm)).toEqual(['const input0 = verdict(', 'const output0 = verdict(']);
    expect(text).toContain(
      '  get_repo: { input: input0, output: output0 },\n' +
        '  delete_repo: { input: input0 },\n' +
        '  get_issue: { input: output0, output: output0 },\n',
    );
  });

  it('compiles none past maxPrecompiledSchemas tool schemas: the server compiles each on first use', async () => {
    const tools = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, inputSchema: ownerRepo, outputSchema: null }));
    const atLimit = String((await emitValidators(tools(maxPrecompiledSchemas), ctx)).contents);
    expect(atLimit).toContain('const input0 = verdict(');
    expect(atLimit).toContain(`  tool_${maxPrecompiledSchemas - 1}: { input: input0 },\n`);
    const past = String((await emitValidators(tools(maxPrecompiledSchemas + 1), ctx)).contents);
    expect(past).not.toContain('verdict');
    expect(past).toContain(
      `this project has ${maxPrecompiledSchemas + 1} tool schemas, more than ${maxPrecompiledSchemas}`,
    );
    expect(past.endsWith('export const validators: PrecompiledValidators = {};\n')).toBe(true);
  });
});
