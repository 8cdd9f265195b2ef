import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { promptArgsValidator } from '../../templates/runtime/prompts.gen.js';
import type { PrecompiledValidators } from '../../templates/runtime/register.gen.js';
import type { PromptSpec } from '../../templates/runtime/spec.gen.js';
import { repoRoot } from '../support/golden.js';

// The validators a generated server runs without compiling anything (validators.gen.ts, emitted as ajv standalone
// code, and the prompts' hand-written argument check) must give the SDK's own verdict: for every tool schema of every
// example and golden project, and for a corpus of values built from the schema by a seeded PRNG (near-valid values,
// boundary values, wrong types, extra and missing properties, astral characters), the same valid/invalid answer, the
// same value and the same message as `fromJsonSchema`.

const SEED = 20_261_128;
const VALUES_PER_SCHEMA = 400;

type Schema = Readonly<Record<string, unknown>>;
type Validate = StandardSchemaWithJSON['~standard']['validate'];

/** mulberry32. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof prng>;

const characters = ['a', 'Z', '0', ' ', '-', '_', '.', '@', 'é', '日', '🚀', '\u{1F600}', '\n', '"', '\\', '/', '~'];

function randomString(rng: Rng, length: number): string {
  return Array.from({ length }, () => rng.pick(characters)).join('');
}

/** Any JSON value, shallow: the wrong-type cases. */
function anyValue(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => rng.chance(0.5),
    () => rng.int(2000) - 1000,
    () => (rng.next() - 0.5) * 1e10,
    () => 0.5,
    () => randomString(rng, rng.int(6)),
    () => [],
    () => [rng.int(3)],
    () => ({}),
    () => ({ x: 1 }),
  ])();
}

/** `#/$defs/name` in `root`. */
function resolve(root: Schema, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/'))
    target = (target as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return { ...(target as Schema), ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')) };
}

function around(rng: Rng, bound: number | undefined, fallback: number): number {
  return bound === undefined ? fallback : bound + rng.pick([-1, 0, 0, 1, -0.5, 0.5]);
}

/** A value near `schema`: mostly valid, often at a boundary, sometimes wrong in one place. */
function sample(root: Schema, raw: Schema, rng: Rng, depth: number): unknown {
  if (depth > 6 || rng.chance(0.04)) return anyValue(rng);
  const schema = resolve(root, raw);
  if (Array.isArray(schema.enum) && rng.chance(0.85)) return rng.pick(schema.enum);
  if ('const' in schema && rng.chance(0.85)) return schema.const;
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[combinator];
    if (Array.isArray(options) && options.length > 0) return sample(root, rng.pick(options) as Schema, rng, depth + 1);
  }
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === 'string'
      ? [schema.type]
      : ['string', 'number', 'object'];
  const type = rng.pick(types);
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  switch (type) {
    case 'string': {
      const min = num('minLength') ?? 0;
      const max = num('maxLength') ?? min + 12;
      const length = Math.max(
        0,
        rng.pick([min - 1, min, max, max + 1, min + rng.int(Math.max(1, Math.min(max, 40) - min + 1))]),
      );
      return typeof schema.default === 'string' && rng.chance(0.1)
        ? schema.default
        : randomString(rng, Math.min(length, 300));
    }
    case 'integer':
    case 'number': {
      const low = num('minimum') ?? num('exclusiveMinimum');
      const high = num('maximum') ?? num('exclusiveMaximum');
      const value = rng.pick([
        around(rng, low, -3),
        around(rng, high, 7),
        rng.int(100),
        rng.int(100) + 0.25,
        2 ** 53,
        -0,
      ]);
      return type === 'integer' && rng.chance(0.8) ? Math.trunc(value) : value;
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const min = num('minItems') ?? 0;
      const max = num('maxItems') ?? min + 3;
      const length = Math.max(0, Math.min(rng.pick([min - 1, min, max, max + 1, min + rng.int(3)]), 20));
      const array = Array.from({ length }, () => sample(root, items, rng, depth + 1));
      if (schema.uniqueItems === true && array.length > 0 && rng.chance(0.3)) array.push(structuredClone(array[0]));
      return array;
    }
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (rng.chance(required.has(name) ? 0.93 : 0.6)) value[name] = sample(root, property, rng, depth + 1);
      }
      if (rng.chance(0.08)) value[rng.pick(['extra', 'constructor', '__proto__x', 'a/b', 'x~y'])] = anyValue(rng);
      return value;
    }
  }
}

/** The seeded corpus for one schema: top-level odd values first, then samples. */
function corpus(schema: Schema, seed: number): unknown[] {
  const rng = prng(seed);
  return [
    undefined,
    null,
    0,
    'x',
    [],
    {},
    ...Array.from({ length: VALUES_PER_SCHEMA }, () => sample(schema, schema, rng, 0)),
  ];
}

/** Both verdicts, compared as data: `{ value }` (same object) or `{ issues: [{ message }] }`. */
function expectSameVerdict(ours: Validate, sdk: Validate, values: readonly unknown[], label: string): number {
  let invalid = 0;
  for (const value of values) {
    const expected = sdk(value) as { value?: unknown; issues?: readonly { message: string }[] };
    const actual = ours(value) as { value?: unknown; issues?: readonly { message: string }[] };
    expect({
      label,
      value,
      verdict: actual.issues === undefined ? 'valid' : actual.issues.map((i) => i.message),
    }).toEqual({
      label,
      value,
      verdict: expected.issues === undefined ? 'valid' : expected.issues.map((i) => i.message),
    });
    if (expected.issues === undefined) expect(actual.value).toBe(expected.value);
    else invalid++;
  }
  return invalid;
}

/** Every generated project in the repository: the examples and the golden trees. */
function projects(): string[] {
  const examples = readdirSync(path.join(repoRoot, 'examples')).map((name) => path.join('examples', name));
  const golden = readdirSync(path.join(repoRoot, 'test', 'fixtures', 'valid')).map((name) =>
    path.join('test', 'fixtures', 'valid', name, 'expected'),
  );
  return [...examples, ...golden]
    .filter((dir) => existsSync(path.join(repoRoot, dir, 'src', 'generated', 'validators.gen.ts')))
    .sort();
}

interface Registry {
  readonly tools: readonly {
    readonly name: string;
    readonly inputSchema: Schema;
    readonly outputSchema: Schema | null;
  }[];
  readonly prompts: readonly PromptSpec[];
}

describe('precompiled validators give the SDK verdict', () => {
  for (const project of projects()) {
    it(project, async () => {
      const generated = path.join(repoRoot, project, 'src', 'generated');
      const registry = JSON.parse(readFileSync(path.join(generated, 'registry.gen.json'), 'utf8')) as Registry;
      const { validators } = (await import(path.join(generated, 'validators.gen.ts'))) as {
        validators: PrecompiledValidators;
      };
      let compared = 0;
      let invalid = 0;
      for (const [index, tool] of registry.tools.entries()) {
        for (const side of ['input', 'output'] as const) {
          const schema = side === 'input' ? tool.inputSchema : tool.outputSchema;
          const ours = validators[tool.name]?.[side];
          if (schema === null || ours === undefined) continue;
          const sdk = (fromJsonSchema(schema as Record<string, unknown>) as StandardSchemaWithJSON)['~standard']
            .validate;
          invalid += expectSameVerdict(
            ours,
            sdk,
            corpus(schema, SEED + index * 2 + (side === 'output' ? 1 : 0)),
            `${tool.name} ${side}`,
          );
          compared++;
        }
      }
      for (const [index, prompt] of registry.prompts.entries()) {
        const properties = Object.fromEntries(prompt.arguments.map((a) => [a.name, { type: 'string' }]));
        const schema = {
          type: 'object',
          properties,
          required: prompt.arguments.filter((a) => a.required).map((a) => a.name),
        };
        const sdk = (fromJsonSchema(schema) as StandardSchemaWithJSON)['~standard'].validate;
        invalid += expectSameVerdict(
          promptArgsValidator(prompt),
          sdk,
          corpus(schema, SEED + 1000 + index),
          `prompt ${prompt.name}`,
        );
        compared++;
      }
      expect(compared).toBeGreaterThan(0);
      // The corpus must exercise both answers, or the comparison proves little.
      expect(invalid).toBeGreaterThan(compared * 20);
    });
  }
});
