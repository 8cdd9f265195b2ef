/**
 * The two ajv validators validate uses: the manifest's own shape, and the JSON Schema 2020-12
 * meta-schema for tool schemas. Compiling them is most of what `validate` costs, and they never change
 * between runs of one mcp-gen, so the build compiles them once into standalone modules next to this
 * file (`npm run build`, scripts/build-validators.mjs); without those (a run from the sources), they
 * are compiled here on first use, with the same options.
 */
import type AjvModule from 'ajv';
import type { ErrorObject, Options } from 'ajv';
import type Ajv2020Module from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import { annotationKeywords, manifestSchema } from './manifest-schema.js';

/** A compiled validator, as ajv and its standalone code both give it. */
export interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * The shape validator's options. `strictRequired` is off because `if/then` branches name keys declared one level up.
 */
export const shapeOptions: Options = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  keywords: [...annotationKeywords],
};

/**
 * The meta-schema validator's options: only the meta-schema is
 * checked, so unknown keywords such as `x-mcp-header` stay allowed.
 */
export const metaOptions: Options = { allErrors: true, strict: false, verbose: true };

/** The dialect of tool schemas (the MCP default), the only one the precompiled meta validator knows. */
export const metaSchemaId = 'https://json-schema.org/draft/2020-12/schema';

/** Where the build puts the standalone validators, relative to this module. */
export const precompiledFiles = { shape: './precompiled/shape.cjs', meta: './precompiled/meta-2020.cjs' } as const;

// Synchronous loading, since rules are synchronous; ajv itself is loaded only when something must be compiled.
const require = createRequire(import.meta.url);

function precompiled(file: string): Validator | undefined {
  try {
    return require(file) as Validator;
  } catch {
    return undefined;
  }
}

let shape: Validator | undefined;

/** Validates a manifest's data against the manifest schema. */
export function shapeValidator(): Validator {
  shape ??=
    precompiled(precompiledFiles.shape) ??
    new (require('ajv') as typeof AjvModule).default(shapeOptions).compile(manifestSchema);
  return shape;
}

let meta: Validator | undefined | null = null;
let metaAjv: InstanceType<typeof Ajv2020Module.default> | undefined;

/**
 * Checks `schema` against its meta-schema, as ajv's `validateSchema` does (and throws as it does for
 * an unknown `$schema`); `errors` are on the returned object.
 */
export function validateSchema(schema: object): { valid: boolean; errors: ErrorObject[] } {
  if (meta === null) meta = precompiled(precompiledFiles.meta);
  const dialect = (schema as { $schema?: unknown }).$schema;
  if (meta !== undefined && (dialect === undefined || dialect === metaSchemaId)) {
    const valid = meta(schema);
    return { valid, errors: meta.errors ?? [] };
  }
  metaAjv ??= new (require('ajv/dist/2020.js') as typeof Ajv2020Module).default(metaOptions);
  const valid = metaAjv.validateSchema(schema) as boolean;
  return { valid, errors: metaAjv.errors ?? [] };
}
