import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { emitRegistry } from '../../src/emit/registry/index.js';
import { largeToolSchemas } from '../../src/emit/shared/scale.js';
import type { EmitContext } from '../../src/emit/shared/files.js';
import { emitTypes } from '../../src/emit/types/index.js';
import { emitValidators } from '../../src/emit/validators/index.js';
import { parseManifest } from '../../src/load/index.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { sortedJsonText, sortKeysDeep } from '../../src/util/stable-json.js';
import { validateManifest } from '../../src/validate/index.js';

// Shared schemas (`schemas:`): references `#/schemas/<name>` from tool schemas and from one another, checked with
// file:line:col; one object per shared schema in the model, one type, one registry constant, one validator.

const hints = '    annotations: { readOnlyHint: true, openWorldHint: false }\n';
const manifest = [
  'mcpGen: 1',
  'server: { name: tiny, version: 1.0.0 }',
  'schemas:',
  '  user:',
  '    type: object',
  '    properties:',
  '      login: { type: string, maxLength: 39 }',
  "      manager: { $ref: '#/schemas/user' }",
  '    required: [login]',
  '  team:',
  '    type: object',
  "    properties: { lead: { $ref: '#/schemas/user' }, name: { type: string, maxLength: 9 } }",
  'tools:',
  '  get_team:',
  '    description: Returns the team with its lead, and the lead with their manager.',
  hints.trimEnd(),
  "    input: { type: object, additionalProperties: false, properties: { team: { $ref: '#/schemas/team' } } }",
  "    output: { type: object, properties: { lead: { $ref: '#/schemas/user' } } }",
  '',
].join('\n');

function check(text: string) {
  const loaded = parseManifest(text, 'a.yaml');
  if (!loaded.ok) throw new Error('did not load');
  return validateManifest(loaded.manifest);
}

function model(text: string) {
  const verdict = check(text);
  expect(verdict.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  if (verdict.manifest === null) throw new Error('not valid');
  return normalizeManifest(verdict.manifest);
}

const ctx = {
  manifestPath: 'a.yaml',
  regenerateCommand: 'mcp-gen generate',
  templates: new Map(),
  mcpGenVersion: '0.0.0',
};
const errors = (text: string) =>
  check(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.line}:${d.col} ${d.code} ${d.message}${d.hint === undefined ? '' : ` (${d.hint})`}`);

describe('shared schemas', () => {
  it('complete each wire schema with the shared schemas it reaches, the same object in every tool', () => {
    const m = model(manifest);
    expect(m.schemas.map((s) => [s.name, s.typeName, s.refs])).toEqual([
      ['team', 'Team', ['user']],
      ['user', 'User', ['user']],
    ]);
    const [team, user] = m.schemas;
    const tool = m.tools[0]!;
    expect(tool.wireInput).toEqual({
      $defs: {
        team: {
          properties: { lead: { $ref: '#/$defs/user' }, name: { maxLength: 9, type: 'string' } },
          type: 'object',
        },
        user: {
          properties: { login: { maxLength: 39, type: 'string' }, manager: { $ref: '#/$defs/user' } },
          required: ['login'],
          type: 'object',
        },
      },
      additionalProperties: false,
      properties: { team: { $ref: '#/$defs/team' } },
      type: 'object',
    });
    const defs = (s: unknown) => (s as { $defs: Record<string, unknown> }).$defs;
    expect([defs(tool.wireInput).team === team!.wire, defs(tool.wireOutput).user === user!.wire]).toEqual([true, true]);
    // The digest text of a frozen model is what JSON.stringify of the key-sorted copy gives.
    expect(sortedJsonText(tool.wireInput)).toBe(JSON.stringify(sortKeysDeep(tool.wireInput)));
  });

  it('are one type each, one registry constant each, and validate as the self-contained wire schema', async () => {
    const m = model(manifest);
    const types = await emitTypes(m, ctx as EmitContext);
    expect(types.diagnostics).toEqual([]);
    const text = types.file.contents;
    expect([text.match(/export interface User \{/g)?.length, text.match(/export interface Team \{/g)?.length]).toEqual([
      1, 1,
    ]);
    expect(text).toContain('manager?: User;');
    expect(text).toContain('team?: Team;');
    const registry = emitRegistry(m, ctx as EmitContext).find((f) => f.path.endsWith('registry.gen.ts'))!.contents;
    expect(registry.match(/const schema\d: Readonly<Record<string, unknown>> = /g)).toHaveLength(2);
    expect(registry).toContain('team: schema0,');
    expect(registry).toContain('user: schema1,');

    const wire = m.tools[0]!;
    const emitted = await emitValidators(
      [{ name: wire.name, inputSchema: wire.wireInput, outputSchema: wire.wireOutput }],
      ctx as EmitContext,
      new Map(m.schemas.map((s) => [s.name, s.wire])),
    );
    expect(emitted.contents.match(/const shared = /g)).toHaveLength(1);
    const body = emitted.contents
      .replace(/^import type .*$/m, '')
      .replace('export const validators: PrecompiledValidators =', 'return');
    const validators = new Function(body)() as Record<string, Record<string, (v: unknown) => unknown>>;
    // The SDK's own validator of the self-contained wire schema is the reference.
    const sdk = (fromJsonSchema(wire.wireInput as Record<string, unknown>) as StandardSchemaWithJSON)['~standard'];
    const values = [
      {},
      { team: { name: 'core', lead: { login: 'ada', manager: { login: 'bob' } } } },
      { team: { lead: { manager: { login: 7 } } } },
      { team: { name: 'much too long' } },
      { other: 1 },
    ];
    const verdicts = values.map((value) => validators.get_team!.input!(value));
    expect(verdicts).toEqual(values.map((value) => sdk.validate(value)));
    expect(verdicts.filter((v) => 'issues' in (v as object))).toHaveLength(3);
  });

  it('report a reference to no shared schema at its line and column, with the closest name', () => {
    expect(errors(manifest.replace("lead: { $ref: '#/schemas/user' }", "lead: { $ref: '#/schemas/usr' }"))).toEqual([
      '12:33 ref-unresolved $ref "#/schemas/usr" names no shared schema under schemas (did you mean "#/schemas/user"?)',
    ]);
    expect(
      errors(manifest.replace("{ team: { $ref: '#/schemas/team' } }", "{ team: { $ref: '#/schemas/teams/x' } }")),
    ).toEqual([
      '17:85 ref-unresolved $ref "#/schemas/teams/x" names no shared schema under schemas ' +
        '(declare it under the top-level schemas)',
    ]);
  });

  it('allow recursion but not a cycle made only of aliases, nor a pointer into a shared schema', () => {
    const aliases = manifest.replace(
      'schemas:\n',
      "schemas:\n  a: { $ref: '#/schemas/b' }\n  b: { allOf: [{ $ref: '#/schemas/a' }], description: B }\n",
    );
    expect(errors(aliases)).toEqual([
      '4:6 schema-invalid shared schema "a" is only an alias in a cycle of aliases (a -> b -> a): it describes no ' +
        'value (give one schema of the cycle a type and properties)',
      '5:6 schema-invalid shared schema "b" is only an alias in a cycle of aliases (b -> a -> b): it describes no ' +
        'value (give one schema of the cycle a type and properties)',
    ]);
    const pointer = manifest.replace("manager: { $ref: '#/schemas/user' }", "manager: { $ref: '#/properties/login' }");
    expect(errors(pointer)).toEqual([
      '8:24 schema-invalid shared schema "user" refers to "#/properties/login": a shared schema is placed inside ' +
        'each tool schema that uses it, where a pointer into it no longer leads to the same place ' +
        "(make the part a shared schema of its own and refer to it as '#/schemas/<name>')",
    ]);
  });
});

describe('registry.gen.json of a large project', () => {
  // Past largeToolSchemas tool schemas only programs read it (GitHub's: 16.7 MB indented): it is written on one line.
  const many = (count: number) =>
    [
      manifest.split('tools:\n')[0],
      'tools:',
      ...Array.from({ length: count }, (_, i) => [
        `  get_team_${String(i).padStart(3, '0')}:`,
        '    description: Returns the team with its lead, and the lead with their manager.',
        hints.trimEnd(),
        "    input: { type: object, additionalProperties: false, properties: { team: { $ref: '#/schemas/team' } } }",
        "    output: { type: object, properties: { lead: { $ref: '#/schemas/user' } } }",
      ]).flat(),
      '',
    ].join('\n');
  const json = (count: number) =>
    String(emitRegistry(model(many(count)), ctx as EmitContext).find((f) => f.path.endsWith('.json'))?.contents);

  it(`is indented up to ${largeToolSchemas} tool schemas and on one line past them, with the same data`, () => {
    const atLimit = json(largeToolSchemas / 2);
    expect(atLimit.startsWith('{\n  "approvals": {\n')).toBe(true);
    const past = json(largeToolSchemas / 2 + 1);
    expect(past.split('\n')).toHaveLength(2);
    expect(past.endsWith('}\n')).toBe(true);
    const data = JSON.parse(past) as { tools: { name: string }[] };
    expect(data.tools).toHaveLength(largeToolSchemas / 2 + 1);
    // Apart from the one more tool (and the digests of the list), the same data.
    const { tools: _a, pages: _b, toolsetDigest: _c, ...rest } = JSON.parse(atLimit) as Record<string, unknown>;
    const { tools: _d, pages: _e, toolsetDigest: _f, ...restPast } = data as unknown as Record<string, unknown>;
    expect(restPast).toEqual(rest);
    expect(data.tools[0]).toEqual((JSON.parse(atLimit) as { tools: unknown[] }).tools[0]);
  });
});
