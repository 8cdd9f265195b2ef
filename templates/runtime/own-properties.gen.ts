/**
 * Validators, compiled on first use, for tool schemas that name a member every object inherits (`constructor`,
 * `toString`, `__proto__`, ...) and that validators.gen.ts does not hold as code (past `maxPrecompiledSchemas`, or a
 * schema with a `format`). The SDK's validators find such a member on the prototype of every object: ajv tests
 * `data.constructor !== undefined` and @cfworker/json-schema `"constructor" in data`, so `required: [constructor]`
 * passed without it and an optional `toString` was checked against Object's function (every call refused, or on
 * Workers a thrown error). These validators see only a value's own properties, with the SDK's verdicts and messages
 * otherwise.
 */
import {
  fromJsonSchema,
  type JsonSchemaType,
  type StandardSchemaWithJSON,
  type jsonSchemaValidator,
} from '@modelcontextprotocol/server';
// The validator the SDK itself picks for this runtime: ajv on Node, @cfworker/json-schema on Workers.
import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/_shims';
import type { RegistrySpec } from './spec.gen.js';

type Validate = StandardSchemaWithJSON['~standard']['validate'];

/** The part of the SDK's ajv validator used here: the ajv instance it compiles a schema's dialect with. */
type AjvEngines = { _engineFor(schema: JsonSchemaType): { opts: { ownProperties?: boolean } } };

/** `value` with every object in it (at any depth) without a prototype, so only its own properties are found. */
function ownOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownOnly);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, member] of Object.entries(value)) copy[key] = ownOnly(member);
  return copy;
}

/**
 * `base` made to read own properties only. ajv has an option for it, which its compiler reads at each compile. Other
 * validators check a copy of the value whose objects have no prototype (ajv's own deep equality, used by `const` and
 * `enum`, needs the prototype); the value itself is what passes on.
 */
export function ownPropertiesValidator(base: jsonSchemaValidator): jsonSchemaValidator {
  const engines = base as unknown as Partial<AjvEngines>;
  if (typeof engines._engineFor === 'function') {
    const engineFor = engines._engineFor.bind(base);
    return {
      getValidator<T>(schema: JsonSchemaType) {
        engineFor(schema).opts.ownProperties = true;
        return base.getValidator<T>(schema);
      },
    };
  }
  return {
    getValidator<T>(schema: JsonSchemaType) {
      const check = base.getValidator<T>(schema);
      return (input: unknown) => {
        const verdict = check(ownOnly(input));
        return verdict.valid ? { ...verdict, data: input as T } : verdict;
      };
    },
  };
}

let shared: jsonSchemaValidator | undefined;

/** The validator of `tool`'s input or output schema in `registry`, compiled on its first call, once per process. */
export function ownProperties(registry: RegistrySpec, tool: string, side: 'input' | 'output'): Validate {
  let compiled: Validate | undefined;
  return (value) => {
    if (compiled === undefined) {
      const spec = registry.tools.find((t) => t.name === tool);
      const json = (side === 'input' ? spec?.inputSchema : spec?.outputSchema) ?? {};
      shared ??= ownPropertiesValidator(new DefaultJsonSchemaValidator());
      compiled = fromJsonSchema(json as JsonSchemaType, shared)['~standard'].validate;
    }
    return compiled(value);
  };
}
