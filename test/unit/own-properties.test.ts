import { type JsonSchemaType, fromJsonSchema, type jsonSchemaValidator } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { describe, expect, it } from 'vitest';
import type { EmitContext } from '../../src/emit/shared/files.js';
import { emitValidators, maxPrecompiledSchemas } from '../../src/emit/validators/index.js';
import { ownProperties, ownPropertiesValidator } from '../../templates/runtime/own-properties.gen.js';
import type { RegistrySpec } from '../../templates/runtime/spec.gen.js';

// A tool schema naming a member every object inherits, compiled at run time (past maxPrecompiledSchemas, or with a
// format): the SDK's validators found `constructor` on the prototype of `{}` (ajv on Node: `data.constructor !==
// undefined`; @cfworker/json-schema on Workers: `"constructor" in data`). own-properties.gen.ts reads own
// properties only, with either.

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['constructor'],
  properties: {
    constructor: {},
    toString: { type: 'string' },
    note: { type: 'string', format: 'email' },
    shape: { const: { a: [1] } },
  },
} as const;

/** The verdict of `validator` on `value`: 'valid', the message, or what it threw. */
function verdict(validator: jsonSchemaValidator, value: unknown): string {
  try {
    const result = fromJsonSchema(schema as unknown as JsonSchemaType, validator)['~standard'].validate(value) as {
      value?: unknown;
      issues?: readonly { message: string }[];
    };
    return result.issues === undefined ? `valid ${JSON.stringify(result.value)}` : (result.issues[0]?.message ?? '');
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

describe('validators that read own properties only', () => {
  it('on Node (ajv): {} lacks constructor, toString is checked only when given', () => {
    // The SDK's own: {} passed as having constructor (Object's function), and toString was Object's function.
    expect(verdict(new AjvJsonSchemaValidator(), {})).toBe('data/toString must be string');
    // The SDK's seam: its ajv validator picks the ajv instance of a schema's dialect with _engineFor.
    expect(typeof (new AjvJsonSchemaValidator() as unknown as { _engineFor?: unknown })._engineFor).toBe('function');
    const own = ownPropertiesValidator(new AjvJsonSchemaValidator());
    // ajv's deep equality compares prototypes: the value is checked as given, not as a copy without them.
    expect(verdict(own, { constructor: 'x', shape: { a: [1] } })).toBe('valid {"constructor":"x","shape":{"a":[1]}}');
    expect(verdict(own, {})).toBe("data must have required property 'constructor'");
    expect(verdict(own, { constructor: 'x' })).toBe('valid {"constructor":"x"}');
    expect(verdict(own, { constructor: 'x', toString: 5 })).toBe('data/toString must be string');
    expect(verdict(own, { constructor: 'x', note: 'no' })).toBe('data/note must match format "email"');
    expect(verdict(own, JSON.parse('{"constructor": 1, "__proto__": 2}'))).toBe(
      'data must NOT have additional properties',
    );
  });

  it('on Workers (@cfworker/json-schema): the same verdicts, and the value passed on is the one given', () => {
    expect(verdict(new CfWorkerJsonSchemaValidator(), {})).toBe(
      'threw Instances of "function" type are not supported.',
    );
    const own = ownPropertiesValidator(new CfWorkerJsonSchemaValidator());
    expect(verdict(own, {})).toBe('#: Instance does not have required property "constructor".');
    const given = { constructor: 'x', list: [{ a: 1 }] };
    const check = fromJsonSchema({ type: 'object' }, own)['~standard'].validate(given) as { value: unknown };
    expect(check.value).toBe(given);
    expect(verdict(own, { constructor: 'x' })).toBe('valid {"constructor":"x"}');
    expect(verdict(own, { constructor: 'x', shape: { a: [1] } })).toBe('valid {"constructor":"x","shape":{"a":[1]}}');
    expect(verdict(own, { constructor: 'x', toString: 5 })).toBe(
      '#: Property "toString" does not match schema.; ' +
        '#/toString: Instance type "number" is invalid. Expected "string".',
    );
  });

  it("compiles a tool's schema from the registry on its first call", () => {
    const registry = { tools: [{ name: 't', inputSchema: schema, outputSchema: null }] } as unknown as RegistrySpec;
    const validate = ownProperties(registry, 't', 'input');
    expect(validate({})).toEqual({ issues: [{ message: "data must have required property 'constructor'" }] });
    expect(validate({ constructor: 'x' })).toEqual({ value: { constructor: 'x' } });
  });
});

const ctx: EmitContext = {
  manifestPath: 'mcp.yaml',
  regenerateCommand: 'mcp-gen generate',
  templates: new Map(),
  mcpGenVersion: '0.0.0',
};

describe('validators.gen.ts for schemas naming inherited members', () => {
  const plain = { type: 'object', additionalProperties: false };
  const emitted = async (tools: { name: string; inputSchema: Record<string, unknown> }[]) =>
    String(
      (
        await emitValidators(
          tools.map((t) => ({ ...t, outputSchema: null })),
          ctx,
        )
      ).contents,
    );

  it('gives one the SDK compiles on first use (a format; past the limit) a validator of own properties', async () => {
    const email = { type: 'object', properties: { constructor: { type: 'string', format: 'email' } } };
    const small = await emitted([
      { name: 'a', inputSchema: plain },
      { name: 'b', inputSchema: email },
    ]);
    expect(small).toContain("import { ownProperties } from './runtime/own-properties.gen.js';");
    expect(small).toContain('const input1 = ownProperties(registry, "b", "input");');
    expect(small).toContain('  a: { input: input0 },\n  b: { input: input1 },\n};');
    const many = Array.from({ length: maxPrecompiledSchemas }, (_, i) => ({ name: `t${i}`, inputSchema: plain }));
    const dependent = { type: 'object', dependentRequired: { a: ['valueOf'] } };
    const past = await emitted([...many, { name: 'z', inputSchema: dependent }]);
    expect(past).toContain(
      'export const validators: PrecompiledValidators = {\n  z: { input: ownProperties(registry, "z", "input") },\n};',
    );
  });

  it('leaves the others to the SDK, without the module', async () => {
    const many = Array.from({ length: maxPrecompiledSchemas + 1 }, (_, i) => ({ name: `t${i}`, inputSchema: plain }));
    const text = await emitted(many);
    expect(text).not.toContain('ownProperties');
    expect(text.endsWith('export const validators: PrecompiledValidators = {};\n')).toBe(true);
    expect(await emitted([{ name: 'f', inputSchema: { type: 'string', format: 'email' } }])).not.toContain('registry');
  });
});
